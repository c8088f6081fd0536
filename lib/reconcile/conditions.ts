// Every condition text of a track's status, and the Ready ladder: what each phase's outcome says.
// Only conclude.ts calls these; nothing else in lib/ words a track's condition.

import type { Change } from '../apply/change';
import { waitLine } from '../depends/waitLine';
import { collapseForbidden } from '../identity/forbiddenFix';
import { describePin } from '../pin/describePin';
import type { FetchBackoff, TrackObject } from '../track/trackObject';
import type { ConditionInput, Conditions } from './conditionInput';
import { appliedOf, deployedOf } from './deployedOf';
import { fetchBackoffMessage } from './fetchBackoff';
import { healthFailedReady, healthyCondition, succeededWithSkipsReady } from './healthConditions';
import { applyFailures, type HelmSourceReport, isContinuing, type RunOutcomes } from './outcomes';
import type { PinReport } from './types';

export type { ConditionInput, Conditions, ConditionType } from './conditionInput';

/** The ways a run ends (ReconcileSummary.result, lower-cased). */
export type Finished = 'succeeded' | 'failed' | 'suspended' | 'aborted' | 'continuing' | 'waiting';

/** The error a prune that would remove everything is refused with (also one of the run's errors). */
export const pruneRefusal = (stale: number, commit: string) =>
  `refusing to prune all ${stale} tracked objects: ${commit} has no manifests for this track (set spec.allowEmpty to allow)`;

/** The source got as far as the pin report: the track's credentials were read. */
const pinChecked = (o: RunOutcomes) =>
  o.choice !== undefined &&
  o.source !== undefined &&
  !(o.source.state === 'unfetched' && o.source.credentialsFailed);

/** The pin a run reports (summary.pin): the track's pin and the head it holds back. */
export function pinReport(o: RunOutcomes): PinReport | undefined {
  const pin = o.choice?.pin;
  if (!pin || !pinChecked(o)) return undefined;
  const head = o.source?.head;
  return { ...pin, ...(head && 'commit' in head ? { head: head.commit } : {}) };
}

/** `Pinned` (True with the head it holds back; False once unpinned): the words also of PinnedBehindHead. */
export function pinnedCondition(o: RunOutcomes, track: TrackObject): ConditionInput | undefined {
  if (!pinChecked(o)) return undefined;
  const report = pinReport(o);
  if (!report) {
    const wasPinned = track.status?.conditions?.some((c) => c.type === 'Pinned' && c.status === 'True');
    return wasPinned
      ? { status: 'False', reason: 'Unpinned', message: `not pinned: following ${track.spec.reference}` }
      : undefined;
  }
  const head = o.source?.head;
  const headError = head && 'error' in head ? ` (${head.error})` : '';
  return { status: 'True', reason: 'Pinned', message: `${describePin(report)}${headError}` };
}

/** Fetched and Parsed; for a broken commit, Applied and Pruned too (nothing of it applied). */
export function sourceConditions(o: RunOutcomes, track: TrackObject): Conditions {
  const source = o.source;
  if (!source) return {};
  if (source.state === 'unfetched')
    return { Fetched: { status: 'False', reason: 'FetchFailed', message: source.error } };
  if (source.state === 'unreadable')
    return {
      Fetched: { status: 'True', reason: 'Fetched', message: `fetched ${source.commit}` },
      Parsed: { status: 'False', reason: 'ParseFailed', message: source.error },
      ...brokenConditions(source.commit, track),
    };
  const fetched: ConditionInput = {
    status: 'True',
    reason: 'Fetched',
    message: `fetched ${source.commit} (${source.files} files)`,
  };
  if (source.errors.length > 0)
    return {
      Fetched: fetched,
      Parsed: { status: 'False', reason: 'ParseFailed', message: source.errors.join('\n') },
      ...brokenConditions(source.commit, track),
    };
  const objects = source.manifests.length;
  const message = source.helm
    ? helmParsedMessage(objects, source.helm)
    : source.kustomization
      ? `${objects} objects rendered by kustomize from ${source.kustomization}`
      : `${objects} objects in ${source.files} files`;
  return { Fetched: fetched, Parsed: { status: 'True', reason: 'Parsed', message } };
}

/** A commit that does not parse: which commits the cluster still runs. */
function brokenConditions(commit: string, track: TrackObject): Conditions {
  const status = track.status;
  const runs = [
    status?.lastAppliedCommit ?? 'nothing of this track',
    ...(status?.partiallyAppliedCommit ? [`part of ${status.partiallyAppliedCommit}`] : []),
  ].join(' and ');
  return {
    Applied: {
      status: 'False',
      reason: 'ParseFailed',
      message: `nothing of ${commit} applied: it does not parse; the cluster still runs ${runs}`,
    },
    Pruned: { status: 'False', reason: 'PruneSkipped', message: `nothing pruned: ${commit} does not parse` },
  };
}

/** Applied and Pruned of a commit that parsed; Healthy once judged. */
export function applyConditions(o: RunOutcomes, commit: string): Conditions {
  const out: Conditions = {};
  if (o.apply && o.plan) {
    const failures = applyFailures(o);
    const conflicts = o.apply.changes.filter((c) => c.action === 'conflict');
    const planned = o.plan.planned.length + o.plan.failed.length;
    const deployed = deployedOf([...o.plan.failed, ...o.apply.changes], planned, false);
    const applied = appliedOf(deployed, commit);
    const list = (changes: Change[]) => changes.map((c) => c.message).join('\n');
    if (isContinuing(o)) {
      const message = `${applied}, continuing: the time budget ran out with ${o.apply.notTaken} objects to go`;
      out.Applied = { status: 'False', reason: 'Progressing', message };
      const deferred = `nothing pruned until every object of ${commit} is applied`;
      out.Pruned = { status: 'False', reason: 'PruneDeferred', message: deferred };
    } else if (failures.length > 0) {
      const reason = deployed.extent === 'partial' ? 'PartiallyApplied' : 'ApplyFailed';
      const listed = collapseForbidden(
        failures.map((c) => c.message ?? c.subject),
        o.request.track,
      );
      const message = `${applied}; ${failures.length} failed:\n${listed.join('\n')}`;
      out.Applied = { status: 'False', reason, message };
    } else if (conflicts.length > 0) {
      const message = `${applied}; ${conflicts.length} owned elsewhere:\n${list(conflicts)}`;
      out.Applied = { status: 'False', reason: 'OwnershipConflict', message };
    } else {
      const message = `${o.plan.planned.length} objects match ${commit}`;
      out.Applied = { status: 'True', reason: 'Applied', message };
    }
  }
  const pruned = o.prune ? prunedCondition(o.prune, commit) : undefined;
  if (pruned) out.Pruned = pruned;
  if (o.applyError) out.Applied = { status: 'False', reason: 'ApplyFailed', message: o.applyError };
  if (o.health?.state === 'assessed') out.Healthy = healthyCondition(o.health.health, o.health.finding);
  if (o.health?.state === 'unknown')
    out.Healthy = { status: 'Unknown', reason: 'HealthUnknown', message: o.health.error };
  return out;
}

function prunedCondition(prune: NonNullable<RunOutcomes['prune']>, commit: string): ConditionInput {
  if (prune.state === 'disabled')
    return { status: 'True', reason: 'PruneDisabled', message: 'spec.prune is false' };
  if (prune.state === 'skipped')
    return {
      status: 'False',
      reason: 'PruneSkipped',
      message: `nothing pruned: this reconcile had ${prune.errors} errors`,
    };
  if (prune.state === 'refused')
    return { status: 'False', reason: 'PruneRefused', message: pruneRefusal(prune.stale, commit) };
  const failed = prune.changes.filter((c) => c.action === 'failed');
  const unavailable = prune.changes.filter((c) => c.action === 'unavailable');
  const gone = prune.changes.length - failed.length - unavailable.length;
  if (failed.length > 0)
    return { status: 'False', reason: 'PruneFailed', message: failed.map((c) => c.message).join('\n') };
  if (unavailable.length > 0)
    return {
      status: 'False',
      reason: 'TypeUnavailable',
      message: `pruned ${gone} objects; ${unavailable.length} kept, their type not served now (a type gone for good: delete its tracking object by hand):\n${unavailable.map((c) => `${c.subject}: ${c.message}`).join('\n')}`,
    };
  return { status: 'True', reason: 'Pruned', message: `pruned ${prune.changes.length} objects` };
}

/** The Ready ladder: held back, suspended, continuing, succeeded (with skips), health failed, else failed with what went wrong. */
export function readyCondition(
  o: RunOutcomes,
  finished: Finished,
  facts: {
    commit?: string | undefined;
    errors: string[];
    changes: Change[];
    applied?: ConditionInput;
    /** Set when the run waited for health and it failed (healthConditions.ts healthFailure). */
    healthFailed?: ConditionInput | undefined;
  },
  fetchBackoff: FetchBackoff | null | undefined,
): ConditionInput {
  const { commit, errors } = facts;
  const held = o.dependencies;
  if (held?.state === 'refused') return { status: 'False', reason: held.reason, message: held.message };
  if (held?.state === 'waiting') {
    const waits = held.waiting.map(waitLine).join('; ');
    return { status: 'False', reason: 'DependencyNotReady', message: `waiting for ${waits}` };
  }
  if (finished === 'suspended')
    return { status: 'False', reason: 'Suspended', message: 'spec.suspend is true: nothing was reconciled' };
  if (finished === 'continuing')
    return {
      status: 'False',
      reason: 'Progressing',
      message: facts.applied?.message ?? `applying ${commit}, continuing`,
    };
  if (finished === 'succeeded') {
    const skipped = o.plan?.ignored ?? [];
    return skipped.length > 0
      ? succeededWithSkipsReady(commit, skipped)
      : { status: 'True', reason: 'ReconciliationSucceeded', message: `applied ${commit}` };
  }
  if (facts.healthFailed) return healthFailedReady(commit, facts.healthFailed);
  const broken = isBroken(o);
  const conflicts = facts.changes.filter((c) => c.action === 'conflict').map((c) => c.message ?? c.subject);
  const listed = [...(broken ? [`nothing of ${commit} applied:`] : []), ...errors, ...conflicts];
  const backoff = fetchBackoff ? [fetchBackoffMessage(fetchBackoff)] : [];
  return {
    status: 'False',
    // Conflicts alone say who must act: the owner of the other track, not this one.
    reason: broken
      ? 'ParseFailed'
      : errors.length === 0 && conflicts.length > 0
        ? 'OwnershipConflict'
        : 'ReconciliationFailed',
    message: [...listed.slice(0, 20), ...backoff].join('\n'),
  };
}

/** The commit does not parse (or its tree cannot be read): nothing of it is applied or pruned. */
export const isBroken = (o: RunOutcomes): boolean =>
  o.source?.state === 'unreadable' || (o.source?.state === 'read' && o.source.errors.length > 0);

/** A rendered chart's Parsed message: the release, and every hook left out (hooks are not run yet). */
function helmParsedMessage(objects: number, helm: HelmSourceReport): string {
  const rendered = `${objects} objects rendered by helm from ${helm.chart || '.'} (release ${helm.release} in ${helm.namespace})`;
  if (helm.hooks.length === 0) return rendered;
  const hooks = helm.hooks.map((h) => `${h.subject} (${h.events.join(', ')})`).join(', ');
  return `${rendered}; ${helm.hooks.length} hooks not applied: ${hooks}`;
}
