import { ConfigError } from '../errors';
import { isFullSha } from '../git/resolveReference';

/**
 * `--commit`: a full SHA, checked before anything runs. A replay is fetched by SHA alone (a
 * short one names no ref the server can send), so an abbreviation is refused with the fix.
 */
export function parseCommitArg(commit: string | undefined): string | undefined {
  if (commit === undefined || isFullSha(commit)) return commit?.toLowerCase();
  throw new ConfigError(`--commit ${commit} is not a full commit SHA (40 hex digits)`, {
    subject: '--commit',
    hint: `give the full SHA: \`git rev-parse ${commit}\` in the repository prints it`,
  });
}
