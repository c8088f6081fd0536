import { createHash, createHmac } from 'node:crypto';
import { digestOf, type Manifest } from '../manifests';
import { BoundedMemo } from '../memo/boundedMemo';

// Parsed manifests are shared between reconciles (processParseCache) and never mutated.
const digests = new WeakMap<object, string>();
function manifestDigest(object: Manifest['object']): string {
  let digest = digests.get(object);
  if (digest === undefined) {
    digest = digestOf(object);
    digests.set(object, digest);
  }
  return digest;
}

/**
 * The digest a tracking object records (`spec.digest`, `status.lastAppliedDigest`), computed once
 * per planned object: the manifest's digest; with the pointers its apply leaves out (a rule added
 * or removed re-applies the object once); keyed under the deployment's key (lib/apply/digestKey.ts)
 * unless `key` is undefined (a dry run that writes no tracking object).
 */
export function plannedDigest(
  object: Manifest['object'],
  ignore: readonly (readonly string[])[],
  key: Buffer | undefined,
): string {
  let digest = manifestDigest(object);
  if (ignore.length > 0) {
    const pointers = ignore.map((t) => JSON.stringify(t)).sort();
    digest = `sha256:${createHash('sha256')
      .update(`${digest}\nignore ${pointers.join('\n')}`)
      .digest('hex')}`;
  }
  return key === undefined ? digest : keyedDigest(key, digest);
}

/**
 * An HMAC-SHA256 of a digest under the deployment's key, so equal manifests still digest equally
 * for the in-sync check, while whoever reads tracking objects can verify no guess of the manifest.
 * Written `sha256:<hex>`, the form every release's tracking-object CRD accepts.
 */
export function keyedDigest(key: Buffer, digest: string): string {
  if (keyed.key === undefined || !keyed.key.equals(key)) {
    keyed.key = Buffer.from(key);
    keyed.digests.clear();
  }
  return keyed.digests.get(digest, () => `sha256:${createHmac('sha256', key).update(digest).digest('hex')}`);
}

// The HMACs under the last key used, once per process (the key is the deployment's, one per
// process); at most 20,000 (about 3 MB), cleared when full.
const keyed: { key: Buffer | undefined; digests: BoundedMemo<string, string> } = {
  key: undefined,
  digests: new BoundedMemo(20_000),
};
