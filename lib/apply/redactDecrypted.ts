import type { Manifest } from '../manifests';
import { decryptedAnnotation } from '../manifests/metadataKeys';

/** Whether lightkeeper decrypted this manifest (lib/sops marks each one). */
export const isDecryptedManifest = (m: Manifest): boolean => {
  const annotations = m.object.metadata.annotations;
  return typeof annotations === 'object' && annotations !== null && decryptedAnnotation in annotations;
};

// The API server's field errors: `data[key]: Invalid value: "the value": why`.
const fieldError =
  /(?:^|[\s[,:])([A-Za-z][\w.-]*(?:\[[^\]]*\])*(?:\.[\w-]+(?:\[[^\]]*\])*)*): (?:Invalid value|Required value|Unsupported value|Duplicate value|Forbidden|Too long|Too many|Not found|Internal error)/g;

/**
 * An error about a decrypted object without the API server's words, which may quote a value it was
 * sent: only the field paths it named are kept.
 */
export function redactedError(subject: string, message: string): string {
  const fields = [...new Set([...message.matchAll(fieldError)].map((m) => m[1] as string))];
  const at = fields.length > 0 ? ` at ${fields.join(', ')}` : '';
  return `${subject}: the API server refused it${at} (its message is withheld: the object was decrypted)`;
}
