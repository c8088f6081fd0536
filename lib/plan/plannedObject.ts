import type { Manifest } from '../manifests';
import type { UpdateStrategy } from '../manifests/metadataKeys';
import type { OwnershipDecision } from '../ownership/ownershipTable';
import type { Stage } from './stages';

/** One manifest the ownership table accepted, with everything needed to apply it. */
export interface PlannedObject {
  /** The manifest, its namespace defaulted (or removed for cluster-scoped kinds). */
  manifest: Manifest;
  /** `Kind.group/namespace/name`. */
  subject: string;
  /** Identity across groups: `group/Kind/namespace/name`. */
  key: string;
  resource: { apiVersion: string; plural: string; namespaced: boolean };
  decision: Extract<OwnershipDecision, { verdict: 'track' }>;
  /** Digest of the manifest as desired, before lightkeeper's label and owner reference. */
  digest: string;
  updateStrategy: UpdateStrategy;
  stage: Stage;
  /** JSON pointers (parsed) left out of the apply and of drift: lib/ignore. */
  ignore?: readonly (readonly string[])[];
}

/** `apiVersion/plural`: a resource type, as the live reads of apply and health key what failed. */
export const typeKey = (resource: PlannedObject['resource']) => `${resource.apiVersion}/${resource.plural}`;
