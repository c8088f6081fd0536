import { listServerRefs } from 'isomorphic-git';
import { GitFetchError } from '../errors';
import type { GitConnection } from './gitConnection';

export type ResolvedReference =
  | { kind: 'branch' | 'tag'; ref: string /** Commit it points at when listed (tags peeled). */; oid: string }
  | { kind: 'commit'; oid: string };

export function isFullSha(reference: string): boolean {
  return /^[0-9a-f]{40}$/i.test(reference);
}

/**
 * Works out what `reference` names on the remote: a full commit SHA, or a branch or tag looked up in
 * the remote's refs. `HEAD` means the default branch; full names (`refs/heads/x`, `refs/tags/x`) are
 * accepted too, and a short name that is both a branch and a tag is refused as ambiguous.
 */
export async function resolveReference(
  connection: GitConnection,
  reference: string,
): Promise<ResolvedReference> {
  const { http, url, headers } = connection;
  if (isFullSha(reference)) return { kind: 'commit', oid: reference.toLowerCase() };
  const where = connection.subject;
  if (reference.trim() === '') throw new GitFetchError(`empty reference for ${where}`, { subject: where });

  // Protocol v1 advertises every ref, with tags peeled, in a single request.
  const refs = await listServerRefs({
    http,
    url,
    headers,
    corsProxy: '',
    protocolVersion: 1,
    symrefs: true,
    peelTags: true,
  });
  const byName = new Map(refs.map((ref) => [ref.ref, ref]));
  const name = reference === 'HEAD' ? byName.get('HEAD')?.target : reference;
  const candidates = name?.startsWith('refs/') ? [name] : [`refs/heads/${name}`, `refs/tags/${name}`];
  const found = candidates.flatMap((candidate) => {
    const ref = byName.get(candidate);
    return ref ? [{ ...ref, ref: candidate }] : [];
  });

  const [match, other] = found;
  if (other) {
    throw new GitFetchError(
      `reference ${reference} is both a branch and a tag in ${where}; use refs/heads/${reference} or refs/tags/${reference}`,
      { subject: where },
    );
  }
  if (!match || !(match.ref.startsWith('refs/heads/') || match.ref.startsWith('refs/tags/'))) {
    throw new GitFetchError(`branch or tag ${reference} not found in ${where}`, { subject: where });
  }
  return {
    kind: match.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    ref: match.ref,
    oid: match.peeled ?? match.oid,
  };
}
