import type { TrackPin } from '../track/trackObject';
import type { ReconcileRequest } from './types';

export interface CommitChoice {
  /** What to fetch: the request's commit, else the track's pin, else its reference. */
  reference: string;
  /** The track's pin, when it has one. */
  pin?: TrackPin;
  /**
   * True when the run applies the pin because it named no commit (a sweep, a push, a plain
   * reconcile): the head it holds back is then worth a warning.
   */
  followsPin: boolean;
}

/**
 * Which commit a reconcile applies. A commit named by the request (a replay) wins; a pinned track
 * otherwise stays at its pin, so a sweep or a push corrects drift at the pin instead of undoing the
 * replay; an unpinned track follows the head of its reference.
 */
export function pinnedCommit(
  spec: { reference: string; pin?: TrackPin | undefined },
  request: Pick<ReconcileRequest, 'commit'>,
): CommitChoice {
  const { pin } = spec;
  if (request.commit !== undefined)
    return { reference: request.commit, ...(pin ? { pin } : {}), followsPin: false };
  if (pin) return { reference: pin.commit, pin, followsPin: true };
  return { reference: spec.reference, followsPin: false };
}

/**
 * `suspend: true` stops what follows the track (sweeps, pushes, a reconcile of its head or pin),
 * not a commit someone names: a replay is a deliberate act, most often during the very incident the
 * suspension is for, as a manual sync still works in Argo CD while auto-sync is off.
 */
export const isSuspendedFor = (
  spec: { suspend?: boolean | undefined },
  request: Pick<ReconcileRequest, 'commit'>,
) => spec.suspend === true && request.commit === undefined;

/**
 * Why a continuation (a run that goes on where one that ran out of time stopped) must not run,
 * or undefined. It names its commit only to finish that run: a pin to another commit, or a newer
 * reconcile that attempted another commit since, wins over it, so it never rolls the track back.
 */
export function supersededContinuation(
  track: { spec: { pin?: TrackPin | undefined }; status?: { lastAttemptedCommit?: string | undefined } },
  request: Pick<ReconcileRequest, 'commit' | 'continuation'>,
): string | undefined {
  if (!request.continuation || request.commit === undefined) return undefined;
  const { pin } = track.spec;
  if (pin && pin.commit !== request.commit)
    return `continuation of ${request.commit} superseded: the track is pinned at ${pin.commit}`;
  const attempted = track.status?.lastAttemptedCommit;
  if (attempted !== request.commit)
    return `continuation of ${request.commit} superseded: a later reconcile attempted ${attempted ?? 'nothing'}`;
  return undefined;
}
