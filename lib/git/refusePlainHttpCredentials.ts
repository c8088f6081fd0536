import { GitFetchError } from '../errors';
import type { GitAuth } from './authHeaders';
import { redactUrl } from './redactUrl';

/**
 * Throws, before any request, when credentials (`auth`, or a user-info part in the URL) would travel
 * over plain `http://` to a host other than loopback (127.0.0.0/8, ::1, localhost). A URL that
 * carries credentials must also name its host unambiguously: isomorphic-git cuts the user-info off
 * at the last `@` of the raw string and its transport parses what is left with Node's legacy parser,
 * so a URL such as `http://127.0.0.1\@git.example.com/` would pass a WHATWG-only check and still go
 * to git.example.com. Such URLs are refused with credentials, whatever their scheme.
 *
 * Redirects need nothing here: isomorphic-git's Node transport drops the Authorization header when
 * a redirect leaves the origin (scheme, host and port), so https never hands credentials to http
 * (test/integration/git/credentialTransport.test.ts holds it to that).
 */
export function refusePlainHttpCredentials(url: string, auth: GitAuth | undefined): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  // A user-info part as either parser finds it (isomorphic-git sends it as Basic credentials).
  const inUrl = parsed?.username || parsed?.password || /^[^/?#]*\/\/[^/?#]*@/.test(url);
  if (auth === undefined && !inUrl) return;
  if (parsed && !isUnusual(url)) {
    if (parsed.protocol === 'https:') return;
    if (parsed.protocol === 'http:' && isLoopback(parsed.hostname) && rawHostname(url) === parsed.hostname)
      return;
  }

  const where = redactUrl(url);
  const message =
    parsed?.protocol === 'http:' && !isUnusual(url)
      ? `refusing to send credentials over plain http to ${where}: only https, or http to a loopback address (127.0.0.0/8, ::1, localhost), carries them`
      : `refusing to send credentials to ${where}: not a well-formed https URL`;
  throw new GitFetchError(message, { subject: where });
}

/** Backslashes, whitespace and control characters, where URL parsers disagree. */
function isUnusual(url: string): boolean {
  return /[\\\s]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/** The host as the transport finds it in the raw string, lowercased. */
function rawHostname(url: string): string | undefined {
  const match = /^https?:\/\/(?:[^/?#]*@)?(\[[^\]/?#]*\]|[^/?#:]*)/i.exec(url);
  return match?.[1]?.toLowerCase();
}

export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
