import { ManifestError } from '../errors';
import { type IgnoreRule, ignorablePointer, targets } from '../ignore/ignoreRules';
import type { Manifest } from '../manifests';
import { ignoreFieldsAnnotation } from '../manifests/metadataKeys';

function annotationPointers(manifest: Manifest, subject: string): string[][] {
  const annotations = manifest.object.metadata.annotations as Record<string, unknown> | undefined;
  const value = annotations?.[ignoreFieldsAnnotation];
  if (value === undefined) return [];
  const where = { path: manifest.source.path, line: manifest.source.line, object: subject };
  if (typeof value !== 'string') throw new ManifestError(`${ignoreFieldsAnnotation} must be a string`, where);
  const pointers = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (pointers.length === 0)
    throw new ManifestError(`${ignoreFieldsAnnotation} names no JSON pointer (e.g. /spec/replicas)`, where);
  return pointers.map((pointer) => {
    const checked = ignorablePointer(pointer);
    if ('error' in checked) throw new ManifestError(`${ignoreFieldsAnnotation}: ${checked.error}`, where);
    return checked.tokens;
  });
}

/**
 * The JSON pointers (parsed, each once) a manifest's apply and drift leave out: its track's
 * matching `spec.ignore` rules, then its `lightkeeper.dev/ignore-fields` annotation. A malformed
 * annotation is a ManifestError naming file and line, `subject` and the pointer.
 */
export function ignoredPointers(
  manifest: Manifest,
  subject: string,
  rules: readonly IgnoreRule[],
): string[][] {
  const pointers = [
    ...rules.filter((r) => targets(r.target, manifest.ref)).flatMap((r) => r.pointers),
    ...annotationPointers(manifest, subject),
  ];
  return [...new Map(pointers.map((t) => [JSON.stringify(t), t])).values()];
}
