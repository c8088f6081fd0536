import { ManifestError } from '../errors';
import { formatRef, isJsonObject, type JsonValue, type Manifest } from '../manifests';

// A value SOPS encrypted: what no object may be applied with.
const sopsValue = /ENC\[AES256_GCM,data:/;
// Objects found clean. Parsed manifests are shared between reconciles (processParseCache) and
// never mutated, so one is scanned once per process.
const clean = new WeakSet<object>();

/**
 * The objects that still hold a SOPS-encrypted value after decryption (a generator fed an encrypted
 * file the render did not decrypt, a value pasted from another file): each an error, so the commit
 * is broken and ciphertext is never applied. A Secret's `data` is read decoded.
 */
export function ciphertextLeft(manifests: readonly Manifest[]): ManifestError[] {
  return manifests.flatMap((m) => {
    if (clean.has(m.object)) return [];
    const at = holdsCiphertext(m.object, m.object.kind === 'Secret' && m.object.apiVersion === 'v1');
    if (at === undefined) {
      clean.add(m.object);
      return [];
    }
    const where = { path: m.source.path, line: m.source.line, object: formatRef(m.ref) };
    return [
      new ManifestError(
        `${at} holds a SOPS-encrypted value that was not decrypted: it is not applied`,
        where,
      ),
    ];
  });
}

function holdsCiphertext(value: JsonValue, secret: boolean, path = ''): string | undefined {
  if (typeof value === 'string') return sopsValue.test(value) ? path || 'the object' : undefined;
  const entries: Array<[string, JsonValue]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : isJsonObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, v] of entries) {
    const at = path === '' ? key : `${path}.${key}`;
    const decoded =
      secret && path === 'data' && typeof v === 'string' ? Buffer.from(v, 'base64').toString('latin1') : v;
    const found = holdsCiphertext(decoded, secret, at);
    if (found !== undefined) return found;
  }
  return undefined;
}
