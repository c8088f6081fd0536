import { isJsonObject, type JsonObject, type JsonValue } from '../manifests';
import { decryptedAnnotation } from '../manifests/metadataKeys';
import { lastAppliedAnnotation, maskSecretPair } from './maskSecret';

const hidden = '*****';
const changedMark = '+++++ (changed)';
const addedMark = '+++++ (added)';

type Pair = { before: JsonObject | undefined; after: JsonObject | undefined };

/** Whether lightkeeper decrypted this object from a SOPS document (lib/sops marks each one). */
export const isDecrypted = (o: JsonObject | undefined): boolean => {
  const metadata = o?.metadata;
  return (
    isJsonObject(metadata) &&
    isJsonObject(metadata.annotations) &&
    decryptedAnnotation in metadata.annotations
  );
};

/**
 * Values replaced by marks before anything is printed: a Secret's as maskSecretPair masks them, and
 * every object lightkeeper decrypted, whatever its kind: each value outside apiVersion, kind and
 * metadata is `*****` when the same on both sides, `+++++ (changed)` or `+++++ (added)` after when
 * not; keys stay visible. Its last-applied annotation (a copy of the object) is hidden whole.
 */
export function maskValuesPair(before: JsonObject | undefined, after: JsonObject | undefined): Pair {
  if (!isDecrypted(before) && !isDecrypted(after)) return maskSecretPair(before, after);
  return { before: maskObject(before, undefined), after: maskObject(after, before ?? {}) };
}

function maskObject(object: JsonObject | undefined, other: JsonObject | undefined): JsonObject | undefined {
  if (!object) return object;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind') out[key] = value;
    else if (key === 'metadata') out[key] = withoutLastApplied(value);
    else out[key] = maskValue(value, other === undefined ? undefined : { value: other[key] });
  }
  return out;
}

/** `old` undefined: the before side (everything hidden); `{ value }`: the after side, compared with it. */
function maskValue(value: JsonValue, old: { value: JsonValue | undefined } | undefined): JsonValue {
  if (Array.isArray(value))
    return value.map((v, i) =>
      maskValue(
        v,
        old === undefined ? undefined : { value: Array.isArray(old.value) ? old.value[i] : undefined },
      ),
    );
  if (isJsonObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        maskValue(
          v,
          old === undefined ? undefined : { value: isJsonObject(old.value) ? old.value[k] : undefined },
        ),
      ]),
    );
  if (old === undefined) return hidden;
  if (old.value === undefined) return addedMark;
  return old.value === value ? hidden : changedMark;
}

function withoutLastApplied(metadata: JsonValue): JsonValue {
  if (!isJsonObject(metadata) || !isJsonObject(metadata.annotations)) return metadata;
  if (!(lastAppliedAnnotation in metadata.annotations)) return metadata;
  return { ...metadata, annotations: { ...metadata.annotations, [lastAppliedAnnotation]: hidden } };
}
