export type PushedRef =
  | { type: 'branch' | 'tag'; name: string; ref: string }
  | { type: 'other'; ref: string };

/** `refs/heads/main` → branch `main`; `refs/tags/v1` → tag `v1`. */
export function pushedRef(ref: string): PushedRef {
  if (ref.startsWith('refs/heads/')) return { type: 'branch', name: ref.slice('refs/heads/'.length), ref };
  if (ref.startsWith('refs/tags/')) return { type: 'tag', name: ref.slice('refs/tags/'.length), ref };
  return { type: 'other', ref };
}
