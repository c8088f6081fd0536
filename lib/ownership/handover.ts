import { OwnershipError } from '../errors';
import type { OwnerReference } from './ownerReference';

/** An owner reference as a live object carries it (controller and blockOwnerDeletion optional). */
export interface LiveOwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean | undefined;
  blockOwnerDeletion?: boolean | undefined;
}

/**
 * One write of a child's hand-over from a previous controller (a Faros GitTrackObject) to ours,
 * in this order so that the child always has an owner the garbage collector resolves:
 * 1. `add`: our reference, as non-controller (the server refuses two controllers);
 * 2. `release`: the previous owner's reference removed;
 * 3. `control`: ours made the controller.
 * `done` once ours controls it and the previous reference is gone.
 */
export type HandoverStep = 'add' | 'release' | 'control' | 'done';

export type HandoverState =
  | { step: HandoverStep }
  /** Another controller (neither the previous one nor ours) holds the child: never taken over. */
  | { step: 'conflict'; reason: string };

/**
 * Where a child stands in its hand-over, from its live owner references alone: a rerun after an
 * interruption picks up at the step the last run did not finish.
 */
export function handoverState(
  references: readonly LiveOwnerReference[] | undefined,
  previousUid: string,
  ours: OwnerReference,
): HandoverState {
  const refs = references ?? [];
  const mine = refs.find((r) => r.uid === ours.uid);
  const foreign = refs.find((r) => r.controller && r.uid !== ours.uid && r.uid !== previousUid);
  if (foreign && !mine?.controller)
    return { step: 'conflict', reason: `it is controlled by ${foreign.kind} ${foreign.name}` };
  if (!mine) return { step: 'add' };
  if (refs.some((r) => r.uid === previousUid)) return { step: 'release' };
  return { step: mine.controller ? 'done' : 'control' };
}

/**
 * The child's owner references after `step`. Every other owner reference is kept as it is; ours is
 * `ours` (built by `childOwnerReference`, so legal by construction), only its controller bit
 * differing before the last step.
 */
export function referencesAfter(
  step: Exclude<HandoverStep, 'done'>,
  references: readonly LiveOwnerReference[] | undefined,
  previousUid: string,
  ours: OwnerReference,
): LiveOwnerReference[] {
  const refs = [...(references ?? [])];
  switch (step) {
    case 'add':
      return [...refs, { ...ours, controller: false }];
    case 'release':
      if (!refs.some((r) => r.uid === ours.uid))
        throw new OwnershipError(`refusing to remove ${previousUid} before our owner reference is there`, {
          subject: ours.name,
        });
      return refs.filter((r) => r.uid !== previousUid);
    case 'control':
      return refs.map((r) => (r.uid === ours.uid ? { ...ours } : r));
  }
}
