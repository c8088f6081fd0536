import { isLightkeeperError } from '../errors';
import type { GitAuth } from '../git';
import { resolveHead } from '../git/resolveHead';
import { describePin } from '../pin/describePin';
import { unpinHint } from '../pin/unpinHint';
import type { ReconcileRun } from './finishReconcile';
import type { CommitChoice } from './pinnedCommit';
import { recordEvent } from './recordEvent';
import { gitDeadline } from './timeBudget';

/**
 * Puts the pin on record for this run: the `Pinned` condition (True with the head it holds back;
 * False once unpinned), the summary's `pin`, and a Warning Event when a run that follows the pin finds
 * the head has moved on. Never fails the run: a head that cannot be listed is reported as unknown.
 */
export async function reportPin(
  run: ReconcileRun,
  choice: CommitChoice,
  auth: GitAuth | undefined,
): Promise<void> {
  const { track } = run;
  const { pin } = choice;
  if (!pin) {
    const wasPinned = track.status?.conditions?.some((c) => c.type === 'Pinned' && c.status === 'True');
    if (wasPinned)
      run.conditions.Pinned = {
        status: 'False',
        reason: 'Unpinned',
        message: `not pinned: following ${track.spec.reference}`,
      };
    return;
  }
  let head: string | undefined;
  let headError = '';
  try {
    const { repository: url, reference } = track.spec;
    head = await resolveHead({ url, reference, auth, deadline: gitDeadline(run.deadline) });
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    headError = ` (${e.message})`;
  }
  run.pin = { ...pin, ...(head ? { head } : {}) };
  const message = `${describePin(run.pin)}${headError}`;
  run.conditions.Pinned = { status: 'True', reason: 'Pinned', message };
  if (!choice.followsPin || head === undefined || head === pin.commit) return;
  await recordEvent(
    run.deps.client,
    track,
    'Warning',
    'PinnedBehindHead',
    `${message}: ${run.request.reason ?? 'this reconcile'} applied the pin, not ${track.spec.reference}; \`${unpinHint(run.request.track)}\` follows it again`,
  ).catch(() => {});
  run.trackWrites++;
}
