import { setTimeout as sleep } from 'node:timers/promises';
import { OwnershipError, WaitTimeoutError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { childOwnership } from '../ownership/childOwnership';
import type { LiveObject } from './liveChildren';

/**
 * Deletes a hook object by a delete policy, as the track's identity, and waits until it is gone
 * (bounded by `until`). Only a hook of this track is deleted: no controller, the track's UID label
 * (a hook is applied with that label and without owner references) and a `helm.sh/hook` annotation. Something else of the
 * same name is refused, never deleted. Absent: nothing to do. Returns whether it deleted.
 */
export async function deleteHook(
  childClient: KubeClient,
  path: string,
  subject: string,
  trackUid: string,
  until: number,
): Promise<boolean> {
  const live = await childClient.find<LiveObject>(path, { subject });
  if (!live) return false;
  const ownership = childOwnership(live, { trackerUid: '', trackUid });
  // A protected child of the track (no owner reference, our label) is ours too, but no hook.
  const why = !ownership.ours
    ? ownership.reason
    : (live.metadata.annotations as Record<string, unknown> | undefined)?.['helm.sh/hook'] === undefined
      ? 'it has no helm.sh/hook annotation'
      : undefined;
  if (why !== undefined)
    throw new OwnershipError(`${subject} exists and is not a hook of this track: ${why}`, { subject });
  await childClient.request('DELETE', path, {
    query: { propagationPolicy: 'Background' },
    body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: live.metadata.uid } },
    subject,
  });
  while ((await childClient.find<LiveObject>(path))?.metadata.uid === live.metadata.uid) {
    if (Date.now() > until)
      throw new WaitTimeoutError(`${subject} was not gone in time after deleting it`, { subject });
    await sleep(200);
  }
  return true;
}
