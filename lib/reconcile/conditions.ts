// Which condition each phase's outcome gives, and the Ready ladder. The words are conditionTexts.ts';
// only conclude.ts calls these.

import type { Change } from '../apply/change';
import type { DependencyCheck } from '../depends/dependencyCheck';
import { waitLine } from '../depends/waitLine';
import type { HealthFinding, TrackHealth } from '../health/summarizeHealth';
import { collapseForbidden } from '../identity/forbiddenFix';
import { describePin } from '../pin/describePin';
import type { FetchBackoff, TrackObject } from '../track/trackObject';
import type { ConditionInput, Conditions } from './conditionInput';
import { applied, fetched, healthy, parsed, pinned, pruned, ready, sharded } from './conditionTexts';
import { appliedOf, deployedOf } from './deployedOf';
import { fetchBackoffMessage } from './fetchBackoff';
import { wholeTrackDeployed } from './incrementalCounts';
import {
  applyFailures,
  type Finished,
  isBroken,
  isContinuing,
  type RunOutcomes,
  runChanges,
} from './outcomes';
import type { PinReport } from './types';

export type { ConditionInput, Conditions, ConditionType } from './conditionInput';

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
    return wasPinned ? pinned.released(track.spec.reference) : undefined;
  }
  const head = o.source?.head;
  return pinned.held(describePin(report), head && 'error' in head ? ` (${head.error})` : '');
}

/** Fetched and Parsed; for a broken commit, Applied and Pruned too (nothing of it applied). */
export function sourceConditions(o: RunOutcomes, track: TrackObject): Conditions {
  const source = o.source;
  if (!source) return {};
  if (source.state === 'unfetched') return { Fetched: fetched.failed(source.error) };
  if (source.state === 'unreadable')
    return {
      Fetched: fetched.commit(source.commit),
      Parsed: parsed.failed([source.error]),
      ...brokenConditions(source.commit, track),
    };
  const fetchedCommit = fetched.commit(source.commit, source.files);
  if (source.errors.length > 0)
    return {
      Fetched: fetchedCommit,
      Parsed: parsed.failed(source.errors),
      ...brokenConditions(source.commit, track),
    };
  return {
    Fetched: fetchedCommit,
    Parsed: parsed.objects(source.manifests.length, source.files, source),
  };
}

/** A commit that does not parse: which commits the cluster still runs. */
function brokenConditions(commit: string, track: TrackObject): Conditions {
  const status = track.status;
  const runs = [
    status?.lastAppliedCommit ?? 'nothing of this track',
    ...(status?.partiallyAppliedCommit ? [`part of ${status.partiallyAppliedCommit}`] : []),
  ].join(' and ');
  return { Applied: applied.broken(commit, runs), Pruned: pruned.broken(commit) };
}

/** Applied and Pruned of a commit that parsed; Healthy once judged. */
export function applyConditions(o: RunOutcomes, commit: string): Conditions {
  const out: Conditions = {};
  if (o.apply && o.plan) {
    const failures = applyFailures(o);
    const conflicts = o.apply.changes.filter((c) => c.action === 'conflict');
    const planned = o.plan.planned.length + o.plan.failed.length;
    const subset = deployedOf([...o.plan.failed, ...o.apply.changes], planned, false);
    const deployed = o.incremental ? wholeTrackDeployed(subset, o.incremental) : subset;
    const done = appliedOf(deployed, commit);
    if (isContinuing(o)) {
      const shards = o.shards;
      out.Applied = shards
        ? sharded.applied(done, shards.running?.length ?? 0, shards.total)
        : applied.continuing(done, o.apply.notTaken);
      out.Pruned = pruned.deferred(commit);
    } else if (o.apply.refused) {
      const listed = collapseForbidden(
        failures.map((c) => c.message ?? c.subject),
        o.request.track,
      );
      out.Applied = applied.refused(done, o.apply.refused.written, failures.length, listed);
    } else if (failures.length > 0) {
      const listed = collapseForbidden(
        failures.map((c) => c.message ?? c.subject),
        o.request.track,
      );
      out.Applied = applied.failed(deployed.extent === 'partial', done, listed);
    } else if (conflicts.length > 0) {
      out.Applied = applied.conflicts(
        done,
        conflicts.map((c) => c.message ?? c.subject),
      );
    } else if (o.incremental) {
      const n = (action: string) => runChanges(o).filter((c) => c.action === action).length;
      out.Applied = applied.incremental(o.incremental.paths.length, o.incremental.from, commit, {
        created: n('created'),
        configured: n('configured'),
        unchanged: n('unchanged'),
        pruned: n('deleted') + n('orphaned'),
      });
    } else out.Applied = applied.all(o.plan.planned.length, commit);
  }
  const prunedNow = o.prune ? prunedCondition(o, o.prune, commit) : undefined;
  if (prunedNow) out.Pruned = prunedNow;
  if (o.applyError) out.Applied = applied.error(o.applyError);
  // An incremental run judged only the objects it changed: the track's Healthy stays the whole runs'.
  if (o.incremental) return out;
  if (o.health?.state === 'assessed') out.Healthy = healthyCondition(o.health.health, o.health.finding);
  if (o.health?.state === 'unknown') out.Healthy = healthy.unknown(o.health.error);
  return out;
}

function prunedCondition(
  o: RunOutcomes,
  prune: NonNullable<RunOutcomes['prune']>,
  commit: string,
): ConditionInput {
  if (prune.state === 'disabled') return pruned.disabled();
  if (prune.state === 'skipped') return pruned.skipped(prune.errors);
  if (prune.state === 'refused') return pruned.refused(prune.stale, commit);
  const failed = prune.changes.filter((c) => c.action === 'failed');
  const unavailable = prune.changes.filter((c) => c.action === 'unavailable');
  const gone = prune.changes.length - failed.length - unavailable.length;
  if (failed.length > 0)
    return pruned.failed(
      collapseForbidden(
        failed.map((c) => c.message ?? c.subject),
        o.request.track,
      ),
    );
  if (unavailable.length > 0)
    return pruned.unavailable(
      gone,
      unavailable.map((c) => `${c.subject}: ${c.message}`),
    );
  return pruned.done(prune.changes.length);
}

/**
 * The track's `Healthy` condition. A commit with nothing of the track in the cluster is `True`
 * with reason `NoObjects` (nothing can be unhealthy, as Flux's wait passes on an empty set), never
 * "healthy 0 of 0".
 */
export function healthyCondition(health: TrackHealth, finding: HealthFinding): ConditionInput {
  if (finding.total === 0) return healthy.noObjects();
  if (health.failed > 0) return healthy.judged(finding.allTimedOut ? 'timedOut' : 'failed', health, finding);
  return healthy.judged(health.progressing > 0 ? 'progressing' : 'healthy', health, finding);
}

/**
 * With spec.healthTimeout the run waited for health (as Flux's `wait`): children that failed or
 * timed out fail the run. The `Healthy` condition; undefined when health does not gate the run
 * (no healthTimeout: observed only) or nothing failed.
 */
export function healthFailure(o: RunOutcomes, track: TrackObject): ConditionInput | undefined {
  if (!track.spec.healthTimeout || o.health?.state !== 'assessed' || o.health.health.failed === 0)
    return undefined;
  return healthyCondition(o.health.health, o.health.finding);
}

/** Ready of a track whose spec.dependsOn is not allowed or runs in a cycle (also the run's error). */
export const dependencyRefusal = (held: Extract<DependencyCheck, { state: 'refused' }>): ConditionInput =>
  held.reason === 'DependencyCycle'
    ? ready.dependencyCycle(held.detail)
    : ready.dependencyRefused(held.detail);

/** The Ready ladder: held back, suspended, continuing, succeeded (with skips), health failed, else failed with what went wrong. */
export function readyCondition(
  o: RunOutcomes,
  finished: Finished,
  facts: {
    commit?: string | undefined;
    errors: string[];
    changes: Change[];
    applied?: ConditionInput;
    /** Set when the run waited for health and it failed (healthFailure). */
    healthFailed?: ConditionInput | undefined;
  },
  fetchBackoff: FetchBackoff | null | undefined,
): ConditionInput {
  const { commit, errors } = facts;
  const held = o.dependencies;
  if (held?.state === 'refused') return dependencyRefusal(held);
  if (held?.state === 'waiting') return ready.waiting(held.waiting.map(waitLine));
  if (finished === 'suspended') return ready.suspended();
  if (finished === 'continuing') return ready.continuing(facts.applied?.message, commit);
  if (finished === 'succeeded') {
    const skipped = o.plan?.ignored ?? [];
    return skipped.length > 0 ? ready.succeededWithSkips(commit, skipped) : ready.succeeded(commit);
  }
  if (facts.healthFailed) return ready.healthFailed(commit, facts.healthFailed);
  const conflicts = facts.changes.filter((c) => c.action === 'conflict').map((c) => c.message ?? c.subject);
  // Conflicts alone say who must act: the owner of the other track, not this one.
  const reason = isBroken(o)
    ? 'ParseFailed'
    : errors.length === 0 && conflicts.length > 0
      ? 'OwnershipConflict'
      : o.apply?.refused
        ? 'ValidationFailed'
        : 'ReconciliationFailed';
  return ready.failed(
    reason,
    commit,
    [...errors, ...conflicts],
    fetchBackoff ? fetchBackoffMessage(fetchBackoff) : undefined,
  );
}
