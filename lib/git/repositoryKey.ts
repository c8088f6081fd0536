const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443', 'ssh:': '22', 'git:': '9418' };

// `git@github.com:owner/name.git` (scp-like syntax: user@host, then a colon not followed by //).
const scpLike = /^[^@/:]+@([^/:]+):(?!\/\/)(.+)$/;

/**
 * One comparable key for the URL forms of a repository — https, http, ssh, scp-like, git and html:
 * `host[:port]/owner/name`, lower-cased, without credentials, a default port or a trailing `.git`.
 * Undefined for anything that is not a repository URL.
 */
export function repositoryKey(url: string): string | undefined {
  const trimmed = url.trim();
  const scp = scpLike.exec(trimmed);
  if (scp?.[1] && scp[2] && !trimmed.includes('://')) return key(scp[1], '', scp[2]);
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return undefined;
  }
  const protocol =
    parsed.protocol === 'git+ssh:' || parsed.protocol === 'ssh+git:' ? 'ssh:' : parsed.protocol;
  if (!(protocol in defaultPorts) || !parsed.hostname) return undefined;
  const port = parsed.port === defaultPorts[protocol] ? '' : parsed.port;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  return key(parsed.hostname, port, path);
}

function key(host: string, port: string, path: string): string | undefined {
  const clean = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .toLowerCase();
  if (!clean) return undefined;
  return `${host.toLowerCase()}${port ? `:${port}` : ''}/${clean}`;
}
