import { isJsonObject, type JsonObject } from '../manifests';

const hidden = '*****';
const changedMark = '+++++ (changed)';
const addedMark = '+++++ (added)';

/** Client-side `kubectl apply` keeps the whole object it applied here, a Secret's values included. */
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

type Pair = { before: JsonObject | undefined; after: JsonObject | undefined };

/**
 * A Secret's values replaced by marks before anything is printed (Argo CD leaked Secret data through
 * its diff): a value the same on both sides is `*****` on both, a changed one `*****` before and
 * `+++++ (changed)` after, a new one `+++++ (added)`. Keys stay visible. Every copy is masked: `data`,
 * `stringData`, and the object `kubectl apply` recorded in its last-applied annotation (masked the same
 * way, whatever kind it claims; an annotation that is no JSON object is hidden whole).
 * Any other kind is returned as is.
 */
export function maskSecretPair(before: JsonObject | undefined, after: JsonObject | undefined): Pair {
  if (!isSecret(before) && !isSecret(after)) return { before, after };
  const masked = maskValues(before, after);
  return maskLastApplied(masked.before, masked.after);
}

function maskValues(before: JsonObject | undefined, after: JsonObject | undefined): Pair {
  const b = before ? { ...before } : undefined;
  const a = after ? { ...after } : undefined;
  for (const field of ['data', 'stringData']) {
    const old = before && isJsonObject(before[field]) ? before[field] : undefined;
    const now = after && isJsonObject(after[field]) ? after[field] : undefined;
    if (b && old) b[field] = Object.fromEntries(Object.keys(old).map((k) => [k, hidden]));
    else if (b && field in b) b[field] = hidden;
    if (a && now) {
      a[field] = Object.fromEntries(
        Object.entries(now).map(([k, v]) => [
          k,
          old && k in old ? (old[k] === v ? hidden : changedMark) : addedMark,
        ]),
      );
    } else if (a && field in a) a[field] = mark(before?.[field], a[field]);
  }
  return { before: b, after: a };
}

function maskLastApplied(before: JsonObject | undefined, after: JsonObject | undefined): Pair {
  const old = annotation(before);
  const now = annotation(after);
  if (old === undefined && now === undefined) return { before, after };
  const oldObject = parseObject(old);
  const nowObject = parseObject(now);
  const masked = maskValues(oldObject, nowObject);
  const text = (object: JsonObject | undefined, otherwise: string) =>
    object ? JSON.stringify(object) : otherwise;
  return {
    before: withAnnotation(before, old === undefined ? undefined : text(masked.before, hidden)),
    after: withAnnotation(after, now === undefined ? undefined : text(masked.after, mark(old, now))),
  };
}

const mark = (old: unknown, now: unknown) =>
  old === undefined ? addedMark : JSON.stringify(old) === JSON.stringify(now) ? hidden : changedMark;

function annotation(object: JsonObject | undefined): string | undefined {
  const metadata = object?.metadata;
  if (!isJsonObject(metadata) || !isJsonObject(metadata.annotations)) return undefined;
  const value = metadata.annotations[lastAppliedAnnotation];
  return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
}

function parseObject(text: string | undefined): JsonObject | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function withAnnotation(object: JsonObject | undefined, value: string | undefined): JsonObject | undefined {
  if (!object || value === undefined) return object;
  const metadata = object.metadata as JsonObject;
  const annotations = { ...(metadata.annotations as JsonObject), [lastAppliedAnnotation]: value };
  return { ...object, metadata: { ...metadata, annotations } };
}

const isSecret = (o: JsonObject | undefined) => o?.kind === 'Secret' && (o.apiVersion ?? 'v1') === 'v1';
