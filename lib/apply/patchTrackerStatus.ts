import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { PlannedObject } from './plannedObject';

/** Merge-patches the status of a planned object's tracking object (the reconciler's own write). */
export function patchTrackerStatus(client: KubeClient, p: PlannedObject, status: object) {
  const r = lightkeeperResources[p.decision.tracker];
  return client.request(
    'PATCH',
    resourcePath({
      ...r,
      namespace: p.decision.namespace,
      name: p.decision.trackerName,
      subresource: 'status',
    }),
    {
      body: { status },
      contentType: 'application/merge-patch+json',
      subject: `${r.kind}/${p.decision.trackerName}`,
    },
  );
}
