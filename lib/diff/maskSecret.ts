import { isJsonObject, type JsonObject } from '../manifests';

const hidden = '*****';
const changedMark = '+++++ (changed)';
const addedMark = '+++++ (added)';

/**
 * A Secret's `data` and `stringData` values replaced by marks before anything is printed (Argo CD
 * leaked Secret data through its diff): a value the same on both sides is `*****` on both, a changed
 * one `*****` before and `+++++ (changed)` after, a new one `+++++ (added)`. Keys stay visible.
 * Any other kind is returned as is.
 */
export function maskSecretPair(
  before: JsonObject | undefined,
  after: JsonObject | undefined,
): { before: JsonObject | undefined; after: JsonObject | undefined } {
  if (!isSecret(before) && !isSecret(after)) return { before, after };
  const b = before ? { ...before } : undefined;
  const a = after ? { ...after } : undefined;
  for (const field of ['data', 'stringData']) {
    const old = before && isJsonObject(before[field]) ? before[field] : undefined;
    const now = after && isJsonObject(after[field]) ? after[field] : undefined;
    if (b && old) b[field] = Object.fromEntries(Object.keys(old).map((k) => [k, hidden]));
    if (a && now) {
      a[field] = Object.fromEntries(
        Object.entries(now).map(([k, v]) => [
          k,
          old && k in old ? (old[k] === v ? hidden : changedMark) : addedMark,
        ]),
      );
    }
  }
  return { before: b, after: a };
}

const isSecret = (o: JsonObject | undefined) => o?.kind === 'Secret' && (o.apiVersion ?? 'v1') === 'v1';
