export type GitAuth =
  /**
   * `stableKey`: what the clone cache keys on instead of the token, for tokens that rotate (a
   * GitHub App's installation tokens): a digest of everything that grants the token.
   */
  | { type: 'token'; token: string; stableKey?: string }
  | { type: 'basic'; username: string; password: string };

// Sent up front rather than through isomorphic-git's onAuth, which only runs after a 401: some
// hosts answer anonymous requests for private repositories with 404 instead.
export function authHeaders(auth: GitAuth | undefined): Record<string, string> {
  if (auth === undefined) return {};
  const [username, password] =
    auth.type === 'token' ? ['x-access-token', auth.token] : [auth.username, auth.password];
  return { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}
