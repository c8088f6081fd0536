import { readSetting } from '../settings/functionSettings';
import type { GitHubClient } from './githubClient';
import type { PushStatusSettings } from './pushStatus';

type Env = Record<string, string | undefined>;

/**
 * The commit-status settings of a function invocation: the token (`GITHUB_TOKEN`, or SSM through
 * `GITHUB_TOKEN_SSM_PARAMETER`), `GITHUB_API_URL` for GitHub Enterprise, and
 * `LIGHTKEEPER_STATUS_TARGET_URL`. One client per token, kept across invocations (its rate-limit
 * state with it); `onDisabled` is called once when there is no token. The client (Octokit and its
 * throttling) is loaded at its first use: a function without a token never parses it.
 */
export function githubFromEnv(onDisabled: () => void, env: Env) {
  let client: { token: string; client: GitHubClient } | undefined;
  let told = false;
  return async (context: object): Promise<PushStatusSettings | undefined> => {
    const token = readSetting('githubToken', context, env);
    if (!token) {
      if (!told) onDisabled();
      told = true;
      return undefined;
    }
    if (client?.token !== token) {
      const { createGitHubClient } = await import('./githubClient');
      client = { token, client: createGitHubClient({ token, baseUrl: env.GITHUB_API_URL }) };
    }
    return { client: client.client, targetUrl: env.LIGHTKEEPER_STATUS_TARGET_URL || undefined };
  };
}
