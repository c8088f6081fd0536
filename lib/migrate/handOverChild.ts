import { ApplyError, isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { type HandoverStep, handoverState, referencesAfter } from '../ownership/handover';
import type { OwnerReference } from '../ownership/ownerReference';
import { type ChildMetadata, type ChildTarget, metadataOnly } from './planChild';

export const migrateFieldManager = 'lightkeeper-migrate';

export type HandoverOutcome =
  | { outcome: 'handed over' | 'already ours' | 'interrupted'; writes: number }
  | { outcome: 'missing' | 'conflict'; writes: number; reason: string };

const maxConflicts = 5;

/**
 * Walks one child through the hand-over (add ours as non-controller → release Faros' → make ours
 * the controller), one write per step, each with the resourceVersion it was computed from as its
 * precondition: a child changed meanwhile is read again and its step decided anew, never
 * overwritten. Reads metadata only. Stops before a write once `signal` is aborted; a rerun goes on
 * from the step the child is at.
 */
export async function handOverChild(
  client: KubeClient,
  target: ChildTarget,
  subject: string,
  farosUid: string,
  ours: OwnerReference,
  signal?: AbortSignal,
): Promise<HandoverOutcome> {
  const path = resourcePath(target);
  let writes = 0;
  let conflicts = 0;
  for (;;) {
    const live = await client.find<ChildMetadata>(path, { accept: metadataOnly, subject });
    if (!live) return { outcome: 'missing', writes, reason: 'the child is gone' };
    const state = handoverState(live.metadata.ownerReferences, farosUid, ours);
    if (state.step === 'conflict') return { outcome: 'conflict', writes, reason: state.reason };
    if (state.step === 'done') return { outcome: writes > 0 ? 'handed over' : 'already ours', writes };
    if (signal?.aborted) return { outcome: 'interrupted', writes };
    const step: Exclude<HandoverStep, 'done'> = state.step;
    try {
      await client.request('PATCH', path, {
        body: {
          metadata: {
            resourceVersion: live.metadata.resourceVersion,
            ownerReferences: referencesAfter(step, live.metadata.ownerReferences, farosUid, ours),
          },
        },
        contentType: 'application/merge-patch+json',
        query: { fieldManager: migrateFieldManager },
        subject: `${subject} (${step})`,
      });
      writes++;
    } catch (e) {
      if (!isConflict(e) || ++conflicts > maxConflicts)
        throw new ApplyError(`${subject}: hand-over step ${step} failed: ${(e as Error).message}`, {
          subject,
          cause: e,
        });
    }
  }
}
