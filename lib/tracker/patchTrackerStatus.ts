import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { TrackerKind } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';

/**
 * Where a tracking object's status is written. crds/ serves it as part of the object, so the
 * create of a tracking object can carry its first status (no request of its own); tracking-object
 * CRDs from before that serve a `status` subresource, which a create and a patch of the object
 * ignore.
 */
export type TrackerStatusMode = 'object' | 'subresource';

export type TrackerStatusModes = Readonly<Record<TrackerKind, TrackerStatusMode>>;

const modeOf = (discovery: Discovery, kind: TrackerKind): TrackerStatusMode => {
  const r = lightkeeperResources[kind];
  return discovery.hasSubresource(r.apiVersion, r.kind, 'status') ? 'subresource' : 'object';
};

/** How the API server serves each tracking-object kind's status (read from discovery). */
export const trackerStatusModes = (discovery: Discovery): TrackerStatusModes => ({
  GitTrackObject: modeOf(discovery, 'GitTrackObject'),
  ClusterGitTrackObject: modeOf(discovery, 'ClusterGitTrackObject'),
});

/** Merge-patches the status of a planned object's tracking object (the reconciler's own write). */
export function patchTrackerStatus(
  client: KubeClient,
  p: PlannedObject,
  status: object,
  modes: TrackerStatusModes,
) {
  const r = lightkeeperResources[p.decision.tracker];
  const mode = modes[p.decision.tracker];
  return client.request(
    'PATCH',
    resourcePath({
      ...r,
      namespace: p.decision.namespace,
      name: p.decision.trackerName,
      ...(mode === 'subresource' ? { subresource: 'status' } : {}),
    }),
    {
      body: { status },
      contentType: 'application/merge-patch+json',
      subject: `${r.kind}/${p.decision.trackerName}`,
    },
  );
}
