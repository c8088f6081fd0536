import { isJsonObject, type JsonValue, jsonText, type Manifest } from '../manifests';

/** The formats SOPS reads (its stores): a whole object is sent as JSON, an entry by its key's extension. */
export type SopsFormat = 'yaml' | 'json' | 'dotenv' | 'ini' | 'binary';

/** One document for the engine to decrypt: `id` names it in the answer, `data` its bytes. */
export interface SopsDocument {
  id: string;
  format: SopsFormat;
  data: Buffer;
}

/** Where a document came from: a whole object, or one entry of a Secret's `data` or `stringData`. */
export type SopsTarget =
  | { manifest: number; kind: 'object' }
  | { manifest: number; kind: 'entry'; field: 'data' | 'stringData'; key: string };

export interface EncryptedParts {
  documents: SopsDocument[];
  targets: SopsTarget[];
}

/**
 * Whether a document may need KMS: SOPS writes each KMS key's ARN in the clear in its metadata,
 * whatever the format (a value that merely contains one only costs resolving credentials).
 */
export const namesKmsKey = (d: Pick<SopsDocument, 'data'>): boolean => d.data.includes('arn:aws:kms:');

/**
 * A whole object encrypted by SOPS carries its metadata in a top-level `sops` mapping (Flux's test):
 * any kind, not only Secrets.
 */
export const isSopsObject = (object: Record<string, JsonValue>): boolean =>
  isJsonObject(object.sops) && Object.keys(object.sops).length > 0;

// What every SOPS document holds, whatever its format: an encrypted value (the data key's own
// cipher) and the sops metadata.
const isSopsText = (text: string) => text.includes('ENC[AES256_GCM,') && text.includes('sops');

/** SOPS's format for a file name (sops's FormatForPath): a Secret entry is named like the file it was. */
export function formatForKey(key: string): SopsFormat {
  if (/\.ya?ml$/i.test(key)) return 'yaml';
  if (/\.json$/i.test(key)) return 'json';
  if (/\.env$/i.test(key)) return 'dotenv';
  if (/\.ini$/i.test(key)) return 'ini';
  return 'binary';
}

/**
 * The SOPS documents of a commit's objects, in one batch: each whole object carrying `sops`
 * metadata (as JSON, as Flux decrypts it), and each entry of a `v1` Secret's `data` (base64) or
 * `stringData` whose value is itself a SOPS document. Pure: the manifests are not touched.
 */
export function encryptedParts(manifests: readonly Manifest[]): EncryptedParts {
  const documents: SopsDocument[] = [];
  const targets: SopsTarget[] = [];
  const add = (target: SopsTarget, format: SopsFormat, data: Buffer) => {
    documents.push({ id: String(documents.length), format, data });
    targets.push(target);
  };
  manifests.forEach(({ object }, index) => {
    if (isSopsObject(object)) {
      add({ manifest: index, kind: 'object' }, 'json', Buffer.from(jsonText(object)));
      return;
    }
    if (object.kind !== 'Secret' || object.apiVersion !== 'v1') return;
    for (const field of ['data', 'stringData'] as const) {
      const entries = object[field];
      if (!isJsonObject(entries)) continue;
      for (const [key, value] of Object.entries(entries)) {
        if (typeof value !== 'string') continue;
        const data = field === 'data' ? Buffer.from(value, 'base64') : Buffer.from(value);
        if (isSopsText(data.toString('latin1')))
          add({ manifest: index, kind: 'entry', field, key }, formatForKey(key), data);
      }
    }
  });
  return { documents, targets };
}
