import { createHash } from 'node:crypto';
import { isOurApply, managedFieldsOf, withoutIgnoredFields } from '../ignore/managedFields';
import type { PlannedObject } from '../plan/plannedObject';

/**
 * sha256 of the fields lightkeeper's apply owns on a live object. Anyone else changing or removing
 * one of those fields takes it over (or drops it), so the digest moves; status updates and fields
 * we never set leave it alone. Undefined when we own nothing there (never applied, or taken over).
 * Fields `planned` ignores are left out: another manager taking one over is no drift.
 */
export function appliedFieldsDigest(
  live: unknown,
  planned?: Pick<PlannedObject, 'ignore' | 'manifest'>,
): string | undefined {
  const ours = managedFieldsOf(live).find(isOurApply);
  if (!ours?.fieldsV1) return undefined;
  const fields = planned?.ignore?.length
    ? withoutIgnoredFields(ours.fieldsV1, planned.ignore, planned.manifest.object)
    : ours.fieldsV1;
  return `sha256:${createHash('sha256').update(JSON.stringify(fields)).digest('hex')}`;
}
