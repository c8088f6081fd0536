import { ManifestError } from '../errors';
import { formatRef, isJsonObject, type JsonObject, type Manifest } from '../manifests';
import { checkObject } from '../manifests/checkObject';
import { decryptedAnnotation } from '../manifests/metadataKeys';
import { readJsonDocument } from '../manifests/readJsonDocument';
import type { SopsTarget } from './sopsDocuments';

/** The engine's answer for one document: its plaintext, or why it could not be decrypted. */
export type DecryptAnswer = { data: Buffer } | { error: string };

/**
 * The manifests with every decrypted part put in place, each object that had one marked
 * `lightkeeper.dev/decrypted: sops` (so diff, tree and audit mask its values whatever its kind).
 * New objects are built: the parsed manifests (kept in the process's parse cache) are never
 * touched. A part that failed is a ManifestError naming the file, the object and the field, with
 * the engine's reason (which never carries a value); its object is left out.
 */
export function decryptedManifests(
  manifests: readonly Manifest[],
  targets: readonly SopsTarget[],
  answers: readonly DecryptAnswer[],
): { manifests: Manifest[]; errors: ManifestError[] } {
  const replaced = new Map<number, Manifest | undefined>();
  const errors: ManifestError[] = [];
  targets.forEach((target, i) => {
    const original = manifests[target.manifest] as Manifest;
    const answer = answers[i];
    const where = { path: original.source.path, line: original.source.line, object: formatRef(original.ref) };
    const field = target.kind === 'entry' ? ` (${target.field}.${target.key})` : '';
    if (answer === undefined || 'error' in answer) {
      const reason = answer === undefined ? 'the decryptor gave no answer' : answer.error;
      errors.push(new ManifestError(`cannot decrypt${field}: ${reason}`, where));
      replaced.set(target.manifest, undefined);
      return;
    }
    if (replaced.has(target.manifest) && replaced.get(target.manifest) === undefined) return;
    const current = replaced.get(target.manifest) ?? original;
    const next =
      target.kind === 'object' ? wholeObject(current, answer.data) : withEntry(current, target, answer.data);
    if (typeof next === 'string') {
      errors.push(new ManifestError(`cannot decrypt${field}: ${next}`, where));
      replaced.set(target.manifest, undefined);
      return;
    }
    replaced.set(target.manifest, next);
  });
  const out: Manifest[] = [];
  manifests.forEach((m, index) => {
    if (!replaced.has(index)) out.push(m);
    else {
      const next = replaced.get(index);
      if (next) out.push(marked(next));
    }
  });
  return { manifests: out, errors };
}

/** The decrypted object, or why it is none (a reason naming fields, never their values). */
function wholeObject(original: Manifest, plain: Buffer): Manifest | string {
  const document = readJsonDocument(plain.toString('utf8'));
  if (!document.ok) return 'the decrypted object is not JSON';
  const checked = checkObject(document.value);
  if (!checked.ok)
    return `the decrypted object is not a Kubernetes object (at ${checked.at.join('.') || 'the top'})`;
  return { source: original.source, object: checked.object, ref: checked.ref };
}

function withEntry(current: Manifest, target: SopsTarget & { kind: 'entry' }, plain: Buffer): Manifest {
  const entries = { ...(current.object[target.field] as JsonObject) };
  entries[target.key] = target.field === 'data' ? plain.toString('base64') : plain.toString('utf8');
  return { ...current, object: { ...current.object, [target.field]: entries } };
}

/** The manifest marked `lightkeeper.dev/decrypted: sops` (a new object; the given one is not touched). */
export function marked(m: Manifest): Manifest {
  const metadata = m.object.metadata;
  const annotations = isJsonObject(metadata.annotations) ? metadata.annotations : {};
  return {
    ...m,
    object: {
      ...m.object,
      metadata: { ...metadata, annotations: { ...annotations, [decryptedAnnotation]: 'sops' } },
    },
  };
}
