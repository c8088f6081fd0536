import { ApplyError } from '../errors';
import { mayDelete } from '../identity/mayDelete';
import { mayWrite } from '../identity/mayWrite';
import type { TrackIdentity } from '../identity/trackIdentity';
import type { KubeClient } from '../kube/kubeClient';
import { splitApiVersion } from '../manifests';
import type { PlannedObject } from '../plan/plannedObject';

const accessTarget = (p: PlannedObject) => ({
  group: splitApiVersion(p.resource.apiVersion)?.group ?? '',
  kind: p.manifest.ref.kind,
  plural: p.resource.plural,
  namespace: p.decision.namespace,
  name: p.manifest.ref.name,
});

/** Throws unless the track's identity (`childClient`) could delete the child itself (lib/identity/mayDelete.ts). */
export async function refuseUndeletable(
  childClient: KubeClient,
  identity: TrackIdentity,
  p: PlannedObject,
): Promise<void> {
  const verdict = await mayDelete(childClient, identity, accessTarget(p));
  if (!verdict.allowed) throw new ApplyError(verdict.message, { subject: p.subject });
}

/** Throws unless the track's identity may apply the child (lib/identity/mayWrite.ts). */
export async function refuseUnwritable(
  childClient: KubeClient,
  identity: TrackIdentity,
  p: PlannedObject,
): Promise<void> {
  const verdict = await mayWrite(childClient, identity, accessTarget(p));
  if (!verdict.allowed) throw new ApplyError(verdict.message, { subject: p.subject });
}
