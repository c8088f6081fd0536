import { createHash } from 'node:crypto';
import { parse } from 'yaml';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { formatRef, splitApiVersion } from '../manifests';
import { handoverState, type LiveOwnerReference } from '../ownership/handover';
import {
  childOwnerReference,
  decideOwnership,
  type TrackerKind,
  type TrackOwner,
} from '../ownership/ownershipTable';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { type FarosTracker, farosLabel } from './farosResources';

export const metadataOnly = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

export interface ChildMetadata {
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion: string;
    ownerReferences?: LiveOwnerReference[];
  };
}

export interface ChildTarget {
  apiVersion: string;
  kind: string;
  plural: string;
  group: string;
  namespace?: string | undefined;
  name: string;
}

/**
 * One child of a Faros tracking object and where its hand-over stands: `add`, `release`,
 * `control` (the next write), `done`; `missing` (no child to hand over: the first reconcile
 * creates it); `conflict` (someone else controls it: left alone); `problem` (cannot be migrated).
 */
export interface ChildPlan {
  subject: string;
  faros: {
    kind: FarosTracker['kind'];
    namespace?: string | undefined;
    name: string;
    uid: string;
    label: string;
    /** sha256 of the manifest Faros recorded (spec.data), for the tracking object until the first reconcile. */
    digest: string;
  };
  target?: ChildTarget | undefined;
  childUid?: string | undefined;
  tracker?: { kind: TrackerKind; namespace?: string | undefined; name: string } | undefined;
  state: 'add' | 'release' | 'control' | 'done' | 'missing' | 'conflict' | 'problem';
  reason?: string | undefined;
}

/** The manifest Faros recorded in `spec.data` (base64 of JSON or YAML), as far as naming the child needs. */
export function decodeFarosManifest(
  tracker: FarosTracker,
): { apiVersion: string; kind: string; name: string } | { problem: string } {
  try {
    const text = Buffer.from(tracker.spec.data ?? '', 'base64').toString('utf8');
    const manifest = parse(text) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
    const { apiVersion, kind } = manifest ?? {};
    const name = manifest?.metadata?.name;
    if (
      typeof apiVersion !== 'string' ||
      !splitApiVersion(apiVersion) ||
      typeof kind !== 'string' ||
      typeof name !== 'string'
    )
      return { problem: 'spec.data holds no manifest with apiVersion, kind and metadata.name' };
    if (kind !== tracker.spec.kind || name !== tracker.spec.name)
      return {
        problem: `spec.data names ${kind} ${name}, but spec names ${tracker.spec.kind} ${tracker.spec.name}`,
      };
    return { apiVersion, kind, name };
  } catch (e) {
    return { problem: `spec.data cannot be read: ${(e as Error).message}` };
  }
}

interface LiveTracker {
  metadata: { uid: string; ownerReferences?: LiveOwnerReference[] };
}

/** Where one Faros tracking object's child stands. Reads only (metadata of the child, never its content). */
export async function planChild(
  client: KubeClient,
  discovery: Discovery,
  config: DeploymentConfig,
  track: TrackOwner,
  trackExists: boolean,
  tracker: FarosTracker,
): Promise<ChildPlan> {
  const faros = {
    kind: tracker.kind,
    namespace: tracker.metadata.namespace,
    name: tracker.metadata.name,
    uid: tracker.metadata.uid,
    label: farosLabel(tracker),
    digest: `sha256:${createHash('sha256')
      .update(tracker.spec.data ?? '')
      .digest('hex')}`,
  };
  const fail = (subject: string, reason: string): ChildPlan => ({ subject, faros, state: 'problem', reason });
  const manifest = decodeFarosManifest(tracker);
  if ('problem' in manifest) return fail(faros.label, manifest.problem);
  const group = splitApiVersion(manifest.apiVersion)?.group ?? '';
  const resource = discovery.resourceFor(manifest.apiVersion, manifest.kind);
  // A GitTrackObject's child lives in its namespace; a ClusterGitTrackObject's is cluster-scoped.
  const namespace = tracker.kind === 'GitTrackObject' ? tracker.metadata.namespace : undefined;
  const subject = formatRef({ group, kind: manifest.kind, namespace, name: manifest.name });
  if (!resource)
    return fail(subject, `the API server does not serve ${manifest.kind} in ${manifest.apiVersion}`);
  if (resource.namespaced !== (namespace !== undefined))
    return fail(
      subject,
      `${tracker.kind} ${faros.name} cannot hold a ${resource.namespaced ? 'namespaced' : 'cluster-scoped'} ${manifest.kind}`,
    );
  const decision = decideOwnership(track, config, {
    ref: {
      apiVersion: manifest.apiVersion,
      group,
      version: resource.version,
      kind: manifest.kind,
      namespace,
      name: manifest.name,
    },
    namespaced: resource.namespaced,
  });
  if (decision.verdict === 'ignore') return fail(subject, decision.reason);
  const target: ChildTarget = {
    apiVersion: manifest.apiVersion,
    kind: manifest.kind,
    plural: resource.plural,
    group,
    namespace,
    name: manifest.name,
  };
  const trackerRef = { kind: decision.tracker, namespace: decision.namespace, name: decision.trackerName };
  const [child, live] = await Promise.all([
    client.find<ChildMetadata>(resourcePath(target), { accept: metadataOnly, subject }),
    trackExists
      ? client.find<LiveTracker>(resourcePath({ ...lightkeeperResources[decision.tracker], ...trackerRef }))
      : undefined,
  ]);
  const base = { subject, faros, target, tracker: trackerRef };
  if (live && !live.metadata.ownerReferences?.some((o) => o.controller && o.uid === track.uid)) {
    const controller = live.metadata.ownerReferences?.find((o) => o.controller);
    const by = controller ? `${controller.kind} ${controller.name}` : 'no track';
    return {
      ...base,
      state: 'problem',
      reason: `its tracking object ${decision.trackerName} exists, controlled by ${by}`,
    };
  }
  if (!child) return { ...base, state: 'missing' };
  const refs = child.metadata.ownerReferences;
  const ours = childOwnerReference(decision, live?.metadata.uid ?? 'not-created-yet', subject);
  const state = handoverState(refs, faros.uid, ours);
  if (state.step === 'conflict')
    return { ...base, childUid: child.metadata.uid, state: 'conflict', reason: state.reason };
  return { ...base, childUid: child.metadata.uid, state: state.step };
}
