import type { KubeObject } from './KubeObject';

/** Fields the API server owns; a manifest that carries them (e.g. copied from `kubectl get -o yaml`) drops them. */
export const SERVER_METADATA_FIELDS: readonly string[] = [
  'uid',
  'resourceVersion',
  'managedFields',
  'creationTimestamp',
  'generation',
  'selfLink',
  'deletionTimestamp',
];

/** A copy of `object` without `status` and server-populated metadata; every other field kept as is. */
export function stripServerFields(object: KubeObject): KubeObject {
  const metadata = Object.fromEntries(
    Object.entries(object.metadata).filter(([key]) => !SERVER_METADATA_FIELDS.includes(key)),
  );
  const top = Object.fromEntries(Object.entries(object).filter(([key]) => key !== 'status'));
  return { ...top, metadata } as KubeObject;
}
