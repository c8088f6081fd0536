import type { LiveOwnerReference } from '../ownership/handover';

export const farosGroup = 'faros.pusher.com';
export const farosApiVersion = 'faros.pusher.com/v1alpha1';

/** Faros' four kinds (shared/background/faros-crds), as its CRDs serve them. */
export const farosResources = {
  GitTrack: { apiVersion: farosApiVersion, kind: 'GitTrack', plural: 'gittracks', namespaced: true },
  ClusterGitTrack: {
    apiVersion: farosApiVersion,
    kind: 'ClusterGitTrack',
    plural: 'clustergittracks',
    namespaced: false,
  },
  GitTrackObject: {
    apiVersion: farosApiVersion,
    kind: 'GitTrackObject',
    plural: 'gittrackobjects',
    namespaced: true,
  },
  ClusterGitTrackObject: {
    apiVersion: farosApiVersion,
    kind: 'ClusterGitTrackObject',
    plural: 'clustergittrackobjects',
    namespaced: false,
  },
} as const;

export type FarosTrackKind = 'GitTrack' | 'ClusterGitTrack';
export type FarosTrackerKind = 'GitTrackObject' | 'ClusterGitTrackObject';

export interface FarosCondition {
  type: string;
  status?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface FarosMetadata {
  name: string;
  namespace?: string | undefined;
  uid: string;
  resourceVersion?: string;
  ownerReferences?: LiveOwnerReference[] | undefined;
}

export interface FarosDeployKey {
  secretName: string;
  key: string;
  secretNamespace?: string | undefined;
  type?: 'SSH' | 'HTTPBasicAuth' | undefined;
}

export interface FarosTrack {
  kind: FarosTrackKind;
  metadata: FarosMetadata;
  spec: { repository: string; reference: string; subPath?: string; deployKey?: FarosDeployKey };
  status?: { conditions?: FarosCondition[] };
}

export interface FarosTracker {
  kind: FarosTrackerKind;
  metadata: FarosMetadata;
  /** `data`: the whole manifest, base64. */
  spec: { kind: string; name: string; data: string };
  status?: { conditions?: FarosCondition[] };
}

/** `GitTrack.faros.pusher.com/ns/name`: how the migration names a Faros object. */
export const farosLabel = (o: { kind: string; metadata: { name: string; namespace?: string | undefined } }) =>
  `${o.kind}.${farosGroup}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
