import type { DependsOnEntry } from '../depends/dependencyRefs';
import { ConfigError, isKubeApiError, TrackNotFoundError } from '../errors';
import type { GitAuth } from '../git';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { KustomizeSpec } from '../kustomize/kustomizeSettings';
import { effectiveDeletionPolicy } from '../ownership/childOwnership';
import type { DeletionPolicy, TrackOwner } from '../ownership/ownershipTable';
import type { FetchBackoff } from './fetchBackoff';
import type { TrackKind, TrackPin, TrackRef } from './types';

export interface TrackCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface TrackObject {
  apiVersion: string;
  kind: TrackKind;
  metadata: { name: string; namespace?: string; uid: string; generation?: number };
  spec: {
    repository: string;
    reference: string;
    subPath?: string;
    auth?: { type: 'token' | 'basic'; secretRef: { name: string; namespace?: string } };
    prune?: boolean;
    deletionPolicy?: DeletionPolicy;
    allowEmpty?: boolean;
    suspend?: boolean;
    serviceAccountName?: string;
    defaultNamespace?: string;
    pin?: TrackPin;
    /** A Go duration (`2m`): how long a reconcile waits for the children it changed to be healthy. */
    healthTimeout?: string;
    dependsOn?: DependsOnEntry[];
    kustomize?: KustomizeSpec;
  };
  status?: {
    observedGeneration?: number;
    lastAppliedCommit?: string;
    lastAttemptedCommit?: string;
    partiallyAppliedCommit?: string;
    conditions?: TrackCondition[];
    fetchBackoff?: FetchBackoff;
  };
}

export const trackLabel = (ref: TrackRef) =>
  ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;

export function trackPath(ref: TrackRef, subresource?: string): string {
  return resourcePath({
    ...lightkeeperResources[ref.kind],
    namespace: ref.namespace,
    name: ref.name,
    subresource,
  });
}

export async function loadTrack(client: KubeClient, ref: TrackRef): Promise<TrackObject> {
  if (ref.kind === 'GitTrack' && !ref.namespace)
    throw new ConfigError(`${trackLabel(ref)}: a GitTrack needs a namespace`);
  const track = await client.find<TrackObject>(trackPath(ref));
  if (!track) throw new TrackNotFoundError(`${trackLabel(ref)} not found`, { subject: trackLabel(ref) });
  return { ...track, kind: ref.kind };
}

export function trackOwner(track: TrackObject): TrackOwner {
  return {
    kind: track.kind,
    apiVersion: track.apiVersion,
    name: track.metadata.name,
    uid: track.metadata.uid,
    namespace: track.kind === 'GitTrack' ? track.metadata.namespace : undefined,
    defaultNamespace: track.spec.defaultNamespace,
    deletionPolicy: effectiveDeletionPolicy(track.spec),
  };
}

/**
 * Credentials from the track's Secret: `token`, or `username` + `password`. `client` acts as the
 * track's identity (lib/identity): a GitTrack reads only Secrets its service account may read.
 */
export async function readGitAuth(client: KubeClient, track: TrackObject): Promise<GitAuth | undefined> {
  const auth = track.spec.auth;
  if (!auth) return undefined;
  const namespace = track.kind === 'GitTrack' ? track.metadata.namespace : auth.secretRef.namespace;
  const where = `Secret ${namespace}/${auth.secretRef.name}`;
  let secret: { data?: Record<string, string> } | undefined;
  try {
    secret = await client.find(
      resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace, name: auth.secretRef.name }),
      { subject: where },
    );
  } catch (e) {
    if (!isKubeApiError(e)) throw e;
    throw new ConfigError(
      `${where} (spec.auth.secretRef) could not be read: ${e.reason ?? e.status}: ${e.message}`,
      {
        subject: where,
        cause: e,
      },
    );
  }
  if (!secret) throw new ConfigError(`${where} (spec.auth.secretRef) not found`, { subject: where });
  const key = (k: string) => {
    const v = secret.data?.[k];
    if (!v)
      throw new ConfigError(`${where} has no key ${k}, needed for auth type ${auth.type}`, {
        subject: where,
      });
    return Buffer.from(v, 'base64').toString('utf8');
  };
  return auth.type === 'token'
    ? { type: 'token', token: key('token') }
    : { type: 'basic', username: key('username'), password: key('password') };
}
