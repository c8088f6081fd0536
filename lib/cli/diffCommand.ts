import { Command, Option } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { hasChanges } from '../diff/diffPlan';
import { formatDiffPlan } from '../diff/formatDiffPlan';
import { ConfigError } from '../errors';
import { cliKubeClient } from './cliKubeClient';
import { exitCodeFor, formatError } from './formatError';
import { parseTrackArg } from './parseTrackArg';
import { withTemporaryDir } from './temporaryDir';

/**
 * `lightkeeper diff`: what reconciling a commit (or a working tree) would change, from reads and
 * server-side dry-runs only. Exit 0 no change, 1 changes, 2 or more an error (as `kubectl diff`).
 */
export function diffCommand(): Command {
  return new Command('diff')
    .description(
      'show what applying a commit or a local tree would change: gittrack/NAME -n NS, or clustergittrack/NAME',
    )
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .option(
      '--commit <commit>',
      'the commit to compare: a SHA (short or full), a branch or a tag (default: what a reconcile would apply)',
    )
    .option('--local <dir>', "a working tree to compare, read under the track's subPath")
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(
      async (arg: string, opts: { namespace?: string; commit?: string; local?: string; output: string }) => {
        let code: number;
        try {
          code = await runDiff(arg, opts);
        } catch (e) {
          console.error(formatError(e));
          code = Math.max(2, exitCodeFor(e));
        }
        process.exit(code);
      },
    );
}

async function runDiff(
  arg: string,
  opts: { namespace?: string; commit?: string; local?: string; output: string },
): Promise<number> {
  const track = parseTrackArg(arg, opts.namespace);
  if (opts.commit !== undefined && opts.local !== undefined)
    throw new ConfigError('--commit and --local exclude each other', { subject: '--local' });
  // The engine and git's transport load when a diff runs, not when `completion` defines the command.
  const { diffTrack } = await import('../diff/diffTrack');
  const { resolveCommitArg } = await import('./resolveCommitArg');
  const config = loadCliConfig();
  const client = await cliKubeClient(config);
  // Ctrl-C ends through process.exit, so the temporary clone is removed on the way out.
  process.once('SIGINT', () => process.exit(130)).once('SIGTERM', () => process.exit(143));
  try {
    const commit = await resolveCommitArg(client, track, opts.commit, config.deployment.sourceLimits.git);
    const plan = await withTemporaryDir('lightkeeper-git-', (gitCacheRoot) =>
      diffTrack(client, config.deployment, {
        track,
        gitCacheRoot,
        ...(commit ? { commit } : {}),
        ...(opts.local !== undefined ? { local: opts.local } : {}),
      }),
    );
    console.log(opts.output === 'json' ? JSON.stringify(plan, null, 2) : formatDiffPlan(plan));
    if (plan.errors.length > 0) return 2;
    return hasChanges(plan) ? 1 : 0;
  } finally {
    await client.close();
  }
}
