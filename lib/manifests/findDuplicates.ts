import { ManifestError } from '../errors';
import type { Manifest } from './Manifest';
import { formatRef, identityKey } from './objectRef';

/**
 * Refuses every later occurrence of an object already seen, naming both locations.
 * The first occurrence is kept in `unique` so that a refused duplicate never looks like a deletion.
 * `keyOf` lets the engine re-check after defaulting namespaces.
 */
export function findDuplicates(
  manifests: readonly Manifest[],
  keyOf: (manifest: Manifest) => string = (manifest) => identityKey(manifest.ref),
): { unique: Manifest[]; errors: ManifestError[] } {
  const firstByKey = new Map<string, Manifest>();
  const unique: Manifest[] = [];
  const errors: ManifestError[] = [];
  for (const manifest of manifests) {
    const key = keyOf(manifest);
    const first = firstByKey.get(key);
    if (first === undefined) {
      firstByKey.set(key, manifest);
      unique.push(manifest);
      continue;
    }
    const { path, line } = manifest.source;
    errors.push(
      new ManifestError(
        `the same object is also defined at ${first.source.path}:${first.source.line}; each object may be defined only once`,
        { path, line, object: formatRef(manifest.ref) },
      ),
    );
  }
  return { unique, errors };
}
