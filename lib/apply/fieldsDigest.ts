import { createHash } from 'node:crypto';
import { fieldManager } from '../kube/serverSideApply';

interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: unknown;
}

/**
 * sha256 of the fields lightkeeper's apply owns on a live object. Anyone else changing or removing
 * one of those fields takes it over (or drops it), so the digest moves; status updates and fields
 * we never set leave it alone. Undefined when we own nothing there (never applied, or taken over).
 */
export function appliedFieldsDigest(live: unknown): string | undefined {
  const entries =
    (live as { metadata?: { managedFields?: ManagedFieldsEntry[] } }).metadata?.managedFields ?? [];
  const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource);
  if (!ours?.fieldsV1) return undefined;
  return `sha256:${createHash('sha256').update(JSON.stringify(ours.fieldsV1)).digest('hex')}`;
}
