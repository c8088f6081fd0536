import type { ObjectRef } from '../manifests';

/**
 * Apply order, as an explicit table: definitions first (and waited for, so custom resources of
 * CRDs from the same commit can be applied), then everything else, then the objects that can
 * intercept or serve other objects' requests, so they cannot block the rest of the commit.
 */
export type Stage = 'definitions' | 'resources' | 'interceptors';
export const stageOrder: readonly Stage[] = ['definitions', 'resources', 'interceptors'];

const definitions = new Set(['apiextensions.k8s.io/CustomResourceDefinition', '/Namespace']);
const interceptors = new Set([
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'apiregistration.k8s.io/APIService',
]);

export function stageOf(ref: Pick<ObjectRef, 'group' | 'kind'>): Stage {
  const key = `${ref.group}/${ref.kind}`;
  if (definitions.has(key)) return 'definitions';
  if (interceptors.has(key)) return 'interceptors';
  return 'resources';
}
