// The words of every condition of a track's status: each reason and message is written here and
// nowhere else. Which condition a run's outcomes give is decided in conditions.ts; these only word it.

import type { HealthFinding, TrackHealth } from '../health/summarizeHealth';
import type { IgnoredManifest } from '../plan/planManifests';
import { type ConditionInput, condition as cond } from './conditionInput';
import type { HelmSourceReport, VaryingReport } from './outcomes';

/** Objects named in a condition or Event before the rest are counted. */
const skipsListed = 5;

/** The error a prune that would remove everything is refused with (also one of the run's errors). */
export const pruneRefusal = (stale: number, commit: string) =>
  `refusing to prune all ${stale} tracked objects: ${commit} has no manifests for this track (set spec.allowEmpty to allow)`;

const healthErrorPrefix = 'health check failed: ';

/** The run's error for a failed health check: the children named, on one line. */
export const healthError = (healthy: ConditionInput): string =>
  `${healthErrorPrefix}${healthy.message.split('\n').join('; ')}`;

/** Whether a run's error is that of a failed health check (healthError). */
export const isHealthError = (error: string): boolean => error.startsWith(healthErrorPrefix);

/** `object (reason)`: the first few skipped manifests, the rest counted (also the SkippedForSafety Event's list). */
export function skippedList(ignored: readonly IgnoredManifest[], separator: string): string {
  const named = ignored.slice(0, skipsListed).map((i) => `${i.object ?? i.path} (${i.reason})`);
  const more = ignored.length - named.length;
  return [...named, ...(more > 0 ? [`…and ${more} more`] : [])].join(separator);
}

/**
 * What two renders of a chart disagreed on: the objects and fields (never the values), what
 * lightkeeper does about it, and the user's fix. Also the RenderNondeterministic Event's message.
 */
export function nondeterministicText(varying: readonly VaryingReport[]): string {
  const named = varying
    .slice(0, skipsListed)
    .map((v) =>
      v.fields.length === 0
        ? `${v.subject} (renders different objects)`
        : `${v.subject} ${v.fields.join(' ')}`,
    );
  const more = varying.length - named.length;
  return (
    `the chart renders differently each time (randAlphaNum, now, genCA): ${[...named, ...(more > 0 ? [`…and ${more} more`] : [])].join(', ')}; ` +
    'these fields keep their live values until a new commit (set them with values, or spec.ignore them)'
  );
}

export const pinned = {
  held: (pin: string, headError: string) => cond('True', 'Pinned', `${pin}${headError}`),
  released: (reference: string) => cond('False', 'Unpinned', `not pinned: following ${reference}`),
};

export const fetched = {
  failed: (error: string) => cond('False', 'FetchFailed', error),
  commit: (commit: string, files?: number) =>
    cond('True', 'Fetched', files === undefined ? `fetched ${commit}` : `fetched ${commit} (${files} files)`),
};

export const parsed = {
  failed: (errors: readonly string[]) => cond('False', 'ParseFailed', errors.join('\n')),
  /** `rendered`: the kustomization or chart the objects were rendered from, if any (a chart's hooks are not run yet). */
  objects: (
    objects: number,
    files: number,
    rendered: { kustomization?: string | undefined; helm?: HelmSourceReport | undefined },
  ) => {
    const { kustomization, helm } = rendered;
    if (helm) {
      const from = `${objects} objects rendered by helm from ${helm.chart || '.'} (release ${helm.release} in ${helm.namespace})`;
      const message = [from, ...hooksRun(helm), ...hooksNotRun(helm)].join('; ');
      if (helm.nondeterministic.length === 0) return cond('True', 'Parsed', message);
      return cond(
        'True',
        'RenderNondeterministic',
        `${message}; ${nondeterministicText(helm.nondeterministic)}`,
      );
    }
    return cond(
      'True',
      'Parsed',
      kustomization
        ? `${objects} objects rendered by kustomize from ${kustomization}`
        : `${objects} objects in ${files} files`,
    );
  },
};

/** spec.helm.hooks Run: the hooks of each stage of this apply, or that they ran for this release before. */
function hooksRun({ run }: HelmSourceReport): string[] {
  if (!run) return [];
  const stages = [run.pre, run.post].filter((s) => s.hooks.length > 0);
  if (stages.length === 0) return [];
  const listed = stages.map(
    (s) => `${s.event} ${s.hooks.map((h) => `${h.hook.kind}/${h.hook.name}`).join(', ')}`,
  );
  return run.due
    ? [`hooks run in order: ${listed.join('; then ')}`]
    : [`hooks not run again: they ran for this commit and spec.helm (${listed.join('; ')})`];
}

const hooksNotRun = ({ hooks, run }: HelmSourceReport): string[] =>
  hooks.length === 0
    ? []
    : [
        `${hooks.length} hooks not ${run ? 'run' : 'applied'}: ${hooks.map((h) => `${h.subject} (${h.events.join(', ')})`).join(', ')}`,
      ];

export const applied = {
  /** A commit that does not parse; `runs`: what the cluster still runs. */
  broken: (commit: string, runs: string) =>
    cond(
      'False',
      'ParseFailed',
      `nothing of ${commit} applied: it does not parse; the cluster still runs ${runs}`,
    ),
  continuing: (applied: string, notTaken: number) =>
    cond(
      'False',
      'Progressing',
      `${applied}, continuing: the time budget ran out with ${notTaken} objects to go`,
    ),
  failed: (partial: boolean, applied: string, failures: readonly string[]) =>
    cond(
      'False',
      partial ? 'PartiallyApplied' : 'ApplyFailed',
      `${applied}; ${failures.length} failed:\n${failures.join('\n')}`,
    ),
  /** Validation (a dry-run as the track) refused `count` objects (`refusals`, Forbidden lines collapsed): nothing written, or only the `written` definitions they needed. */
  refused: (applied: string, written: number, count: number, refusals: readonly string[]) =>
    cond(
      'False',
      'ValidationFailed',
      `${applied}; ${count} refused ${written === 0 ? 'before anything was written' : `once the ${written} namespaces and CRDs they need were written, nothing else written`}:\n${refusals.join('\n')}`,
    ),
  conflicts: (applied: string, conflicts: readonly string[]) =>
    cond(
      'False',
      'OwnershipConflict',
      `${applied}; ${conflicts.length} owned elsewhere:\n${conflicts.join('\n')}`,
    ),
  error: (error: string) => cond('False', 'ApplyFailed', error),
  all: (objects: number, commit: string) => cond('True', 'Applied', `${objects} objects match ${commit}`),
  /** An incremental run: only the files a push changed were applied (lib/reconcile/incrementalPhases.ts). */
  incremental: (
    files: number,
    from: string,
    commit: string,
    done: { created: number; configured: number; unchanged: number; pruned: number },
  ) => {
    const counts = Object.entries(done)
      .filter(([, n]) => n > 0)
      .map(([action, n]) => `${n} ${n === 1 ? 'object' : 'objects'} ${action}`);
    return cond(
      'True',
      'Applied',
      `${files} ${files === 1 ? 'file' : 'files'} changed since ${from.slice(0, 7)}: ${counts.join(', ') || 'no objects'} (incremental run); the other files' objects match ${commit} as they matched ${from.slice(0, 7)}, checked whole by the drift sweep`,
    );
  },
};

export const pruned = {
  broken: (commit: string) => cond('False', 'PruneSkipped', `nothing pruned: ${commit} does not parse`),
  deferred: (commit: string) =>
    cond('False', 'PruneDeferred', `nothing pruned until every object of ${commit} is applied`),
  disabled: () => cond('True', 'PruneDisabled', 'spec.prune is false'),
  skipped: (errors: number) =>
    cond('False', 'PruneSkipped', `nothing pruned: this reconcile had ${errors} errors`),
  refused: (stale: number, commit: string) => cond('False', 'PruneRefused', pruneRefusal(stale, commit)),
  failed: (failures: readonly string[]) => cond('False', 'PruneFailed', failures.join('\n')),
  unavailable: (gone: number, kept: readonly string[]) =>
    cond(
      'False',
      'TypeUnavailable',
      `pruned ${gone} objects; ${kept.length} kept, their type not served now (a type gone for good: delete its tracking object by hand):\n${kept.join('\n')}`,
    ),
  done: (objects: number) => cond('True', 'Pruned', `pruned ${objects} objects`),
};

export const healthy = {
  noObjects: () => cond('True', 'NoObjects', 'no objects of this track to assess'),
  unknown: (error: string) => cond('Unknown', 'HealthUnknown', error),
  /** Counts, the first children not healthy (failed first), the rest counted. */
  judged: (
    verdict: 'failed' | 'timedOut' | 'progressing' | 'healthy',
    health: TrackHealth,
    finding: HealthFinding,
  ) => {
    const message = [
      `healthy ${health.healthy} of ${finding.total}` +
        (health.progressing ? `, progressing ${health.progressing}` : '') +
        (health.failed ? `, failed ${health.failed}` : ''),
      ...health.unhealthy,
      ...(finding.more > 0 ? [`…and ${finding.more} more`] : []),
      ...(finding.newerRun ? ['stopped waiting: a newer reconcile of this track is queued'] : []),
    ].join('\n');
    if (verdict === 'failed') return cond('False', 'HealthCheckFailed', message);
    if (verdict === 'timedOut') return cond('False', 'HealthCheckTimeout', message);
    if (verdict === 'progressing') return cond('Unknown', 'Progressing', message);
    return cond('True', 'Healthy', message);
  },
};

export const ready = {
  dependencyRefused: (refusal: string) => cond('False', 'DependencyRefused', refusal),
  dependencyCycle: (cycle: string) => cond('False', 'DependencyCycle', `dependency cycle: ${cycle}`),
  waiting: (waits: readonly string[]) =>
    cond('False', 'DependencyNotReady', `waiting for ${waits.join('; ')}`),
  suspended: () => cond('False', 'Suspended', 'spec.suspend is true: nothing was reconciled'),
  continuing: (applied: string | undefined, commit: string | undefined) =>
    cond('False', 'Progressing', applied ?? `applying ${commit}, continuing`),
  succeeded: (commit: string | undefined) => cond('True', 'ReconciliationSucceeded', `applied ${commit}`),
  /** Still True: the skips (another namespace, a cluster-scoped object for a GitTrack) said in the reason. */
  succeededWithSkips: (commit: string | undefined, ignored: readonly IgnoredManifest[]) =>
    cond(
      'True',
      'ReconciliationSucceededWithSkips',
      `applied ${commit}; skipped ${ignored.length} objects this track may not apply:\n${skippedList(ignored, '\n')}`,
    ),
  healthFailed: (commit: string | undefined, healthy: ConditionInput) =>
    cond('False', 'HealthCheckFailed', `applied ${commit}; health check failed: ${healthy.message}`),
  /** `lines`: what went wrong, the first 20; `backoff`: when the next fetch is tried. */
  failed: (
    reason: 'ParseFailed' | 'OwnershipConflict' | 'ValidationFailed' | 'ReconciliationFailed',
    commit: string | undefined,
    lines: readonly string[],
    backoff: string | undefined,
  ) =>
    cond(
      'False',
      reason,
      [...(reason === 'ParseFailed' ? [`nothing of ${commit} applied:`] : []), ...lines]
        .slice(0, 20)
        .concat(backoff === undefined ? [] : [backoff])
        .join('\n'),
    ),
};

/** A sharded apply (lib/reconcile/shardPhase.ts): the coordinator's Applied, a failed shard's Ready. */
export const sharded = {
  applied: (done: string, running: number, of: number) =>
    cond('False', 'Progressing', `${done}; ${running} of ${of} shards running, prune waits for all`),
  failed: (id: string, commit: string, errors: readonly string[]) =>
    cond('False', 'ShardFailed', [`shard ${id} of ${commit} failed:`, ...errors].slice(0, 21).join('\n')),
};
