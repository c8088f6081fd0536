import { repositoryKey } from '../git/repositoryKey';

/** `owner` and `repo` of a GitHub (or GitHub Enterprise) repository URL in any of its forms. */
export function repositorySlug(url: string): { host: string; owner: string; repo: string } | undefined {
  const key = repositoryKey(url);
  const [hostAndPort, owner, repo, ...rest] = key?.split('/') ?? [];
  if (!hostAndPort || !owner || !repo || rest.length > 0) return undefined;
  return { host: hostAndPort.replace(/:\d+$/, ''), owner, repo };
}

/**
 * Whether a repository host is the one behind an API URL: `github.com` for `https://api.github.com`,
 * the host itself for GitHub Enterprise (`https://ghe.example/api/v3`). A track on another forge
 * gets no status (it would only earn a 404 per push).
 */
export function servesRepository(apiBaseUrl: string, repositoryHost: string): boolean {
  let apiHost: string;
  try {
    apiHost = new URL(apiBaseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return apiHost === repositoryHost || apiHost === `api.${repositoryHost}`;
}
