import { setTimeout as sleep } from 'node:timers/promises';
import { OwnershipError, WaitTimeoutError } from '../errors';
import { isOtherControllerError } from '../kube/apiErrors';
import type { KubeClient } from '../kube/kubeClient';
import { updateStrategyAnnotation } from '../manifests/metadataKeys';
import { childOwnership } from '../ownership/childOwnership';
import type { LiveObject } from './liveChildren';

export interface RecreateTarget {
  /** The track's identity (lib/identity): it deletes, so it must be allowed to. */
  childClient: KubeClient;
  path: string;
  subject: string;
  trackerUid: string;
  trackUid: string;
  timeoutMs: number;
}

/**
 * Update strategy Recreate, once the server refused an immutable change (`refusal`): deletes the
 * child with a UID precondition, waits until it is gone (bounded), and applies it again. Only a
 * child that is ours (childOwnership) is deleted: a refusal that also says another controller owns
 * the object — a CronJob's Job, an operator's object — ends as a refusal, never as a deletion.
 */
export async function recreateChild<T extends { object: LiveObject }>(
  target: RecreateTarget,
  refusal: unknown,
  apply: () => Promise<T>,
): Promise<T & { created: true }> {
  const { childClient, path, subject } = target;
  const existing = await childClient.get<LiveObject>(path, { subject });
  const ownership = childOwnership(existing, target);
  if (!ownership.ours || isOtherControllerError(refusal)) {
    const why = ownership.ours ? 'it already has another controller' : ownership.reason;
    throw new OwnershipError(
      `${subject}: not recreated (${updateStrategyAnnotation}: Recreate): ${why}; only objects this track controls are deleted`,
      { subject, cause: refusal },
    );
  }
  await childClient.request('DELETE', path, {
    query: { propagationPolicy: 'Background' },
    body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: existing.metadata.uid } },
    subject,
  });
  const deadline = Date.now() + target.timeoutMs;
  while ((await childClient.find<LiveObject>(path))?.metadata.uid === existing.metadata.uid) {
    if (Date.now() > deadline) {
      throw new WaitTimeoutError(
        `${subject} was not gone ${target.timeoutMs} ms after deleting it to recreate`,
        { subject },
      );
    }
    await sleep(200);
  }
  return { ...(await apply()), created: true };
}
