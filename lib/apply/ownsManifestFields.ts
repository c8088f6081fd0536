import { withoutPointers } from '../ignore/jsonPointer';
import { isOurApply, managedFieldsOf } from '../ignore/managedFields';
import { canonicalJson, type JsonValue } from '../manifests';
import { SERVER_METADATA_FIELDS } from '../manifests/stripServerFields';
import type { PlannedObject } from '../plan/plannedObject';

type FieldsNode = { [key: string]: FieldsNode };

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) =>
  v === null ||
  v === undefined ||
  (Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0);
const sameValue = (a: unknown, b: unknown) => canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue);

/** Fields that name the object, or that the API server sets: never in an apply's field set. */
const notOwned = new Set(['name', 'namespace', ...SERVER_METADATA_FIELDS]);

/**
 * The node of a list element: `k:{…}` by its key fields (a key field the manifest leaves out was
 * defaulted by the server, as a port's `protocol`), `v:…` by its value.
 */
function elementNode(node: FieldsNode, element: unknown): FieldsNode | undefined {
  for (const [key, child] of Object.entries(node)) {
    if (key.startsWith('v:') && sameValue(JSON.parse(key.slice(2)), element)) return child;
    if (key.startsWith('k:') && isMap(element)) {
      const fields = Object.entries(JSON.parse(key.slice(2)) as Record<string, unknown>);
      const given = fields.filter(([k]) => element[k] !== undefined);
      if (given.length > 0 && given.every(([k, v]) => sameValue(element[k], v))) return child;
    }
  }
  return undefined;
}

function covers(value: unknown, node: FieldsNode): boolean {
  // A leaf, or a list or map owned as a whole (atomic): everything under it is ours.
  if (Object.keys(node).length === 0) return true;
  if (Array.isArray(value)) {
    return value.every((element) => {
      if (isEmpty(element)) return true;
      const child = elementNode(node, element);
      return child !== undefined && covers(element, child);
    });
  }
  if (!isMap(value)) return true;
  return Object.entries(value).every(([key, v]) => {
    if (isEmpty(v)) return true;
    const child = node[`f:${key}`];
    return child !== undefined && covers(v, child);
  });
}

/**
 * True when lightkeeper's server-side apply still owns every field the manifest sets on `live`
 * (fields `planned` ignores left out). Right after an apply our entry covers the whole manifest;
 * a field someone else changed (it moved to their entry) or removed leaves it. This is the drift
 * check of a child whose tracking object recorded its apply when it was created, before the
 * server's answer gave the exact field set (lib/apply/fieldsDigest.ts). Empty and null values
 * are not required: whether the server keeps them in the set depends on the schema.
 */
export function ownsManifestFields(
  live: unknown,
  planned: Pick<PlannedObject, 'ignore' | 'manifest'>,
): boolean {
  const ours = managedFieldsOf(live).find(isOurApply);
  if (!isMap(ours?.fieldsV1) || Object.keys(ours.fieldsV1).length === 0) return false;
  const manifest = planned.ignore?.length
    ? withoutPointers(planned.manifest.object, planned.ignore)
    : planned.manifest.object;
  const { apiVersion: _v, kind: _k, status: _s, metadata, ...rest } = manifest as Record<string, unknown>;
  const ownedMetadata = isMap(metadata)
    ? Object.fromEntries(Object.entries(metadata).filter(([k]) => !notOwned.has(k)))
    : {};
  return covers({ ...rest, metadata: ownedMetadata }, ours.fieldsV1 as FieldsNode);
}
