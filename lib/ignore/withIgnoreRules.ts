import { createHash } from 'node:crypto';
import type { PlannedObject } from '../apply/plannedObject';
import { ManifestError } from '../errors';
import type { Partition } from '../reconcile/partition';
import { ignoreFieldsAnnotation } from '../track/metadataKeys';
import { type IgnoreRule, ignorablePointer, targets } from './ignoreRules';

function annotationPointers(p: PlannedObject): string[][] {
  const annotations = p.manifest.object.metadata.annotations as Record<string, unknown> | undefined;
  const value = annotations?.[ignoreFieldsAnnotation];
  if (value === undefined) return [];
  const where = { path: p.manifest.source.path, line: p.manifest.source.line, object: p.subject };
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
 * The partition with each planned object's ignored pointers (its track's matching rules and its
 * annotation) attached. The digest covers them: a rule added or removed re-applies the object once.
 * A malformed annotation fails that object alone, naming file and line.
 */
export function withIgnoreRules(plan: Partition, rules: readonly IgnoreRule[]): Partition {
  const planned: PlannedObject[] = [];
  const failed = [...plan.failed];
  for (const p of plan.planned) {
    let pointers: string[][];
    try {
      pointers = [
        ...rules.filter((r) => targets(r.target, p.manifest.ref)).flatMap((r) => r.pointers),
        ...annotationPointers(p),
      ];
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      failed.push({ subject: p.subject, path: p.manifest.source.path, message: e.message });
      continue;
    }
    const unique = [...new Map(pointers.map((t) => [JSON.stringify(t), t])).values()];
    if (unique.length === 0) {
      planned.push(p);
      continue;
    }
    const keys = unique.map((t) => JSON.stringify(t)).sort();
    const digest = `sha256:${createHash('sha256')
      .update(`${p.digest}\nignore ${keys.join('\n')}`)
      .digest('hex')}`;
    planned.push({ ...p, digest, ignore: unique });
  }
  return { ...plan, planned, failed };
}
