import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { LeaseTarget } from './leaseTarget';

interface WaiterLease {
  spec?: {
    holderIdentity?: string | null;
    renewTime?: string;
    acquireTime?: string;
    leaseDurationSeconds?: number;
  };
}

/**
 * Whether another invocation waits for this track's lease: its waiter slot is held and alive (the
 * waiter heartbeats it; see acquireTrackLease). A read, never a write.
 */
export async function waiterQueued(
  client: KubeClient,
  target: LeaseTarget,
  now = Date.now(),
): Promise<boolean> {
  const lease = await client.find<WaiterLease>(
    resourcePath({
      apiVersion: 'coordination.k8s.io/v1',
      plural: 'leases',
      namespace: target.namespace,
      name: target.waiterName,
    }),
  );
  const spec = lease?.spec;
  if (!spec?.holderIdentity) return false;
  const renewed = Date.parse(spec.renewTime ?? spec.acquireTime ?? '');
  return Number.isFinite(renewed) && renewed + (spec.leaseDurationSeconds ?? 15) * 1000 > now;
}
