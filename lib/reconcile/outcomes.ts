// What each phase of a reconcile returns. One pure function (conclude.ts) turns them into the
// result, the conditions, the Events and the summary; no phase ends a run or writes a status.

import type { Change } from '../apply/change';
import type { HookStageOutcome } from '../apply/runHooks';
import type { DependencyCheck } from '../depends/dependencyCheck';
import type { HealthFinding } from '../health/summarizeHealth';
import type { SkippedHook } from '../helm/chartFiles';
import type { Manifest } from '../manifests';
import type { IgnoredManifest } from '../plan/planManifests';
import type { PlannedObject } from '../plan/plannedObject';
import type { TrackerStatusModes } from '../tracker/patchTrackerStatus';
import type { TrackerConditions } from '../tracker/writtenConditions';
import type { HookRun } from './helmHooks';
import type { CommitChoice } from './pinnedCommit';
import type { HealthSummary, ReconcileRequest, ShardsReport } from './types';

/** The head of the track's reference, listed for a pinned track's report, or why it was not. */
export type HeadListing = { commit: string } | { error: string };

/**
 * fetch + read + render + parse. `unfetched`: no commit (the credentials or the fetch failed;
 * `gitFailure` when the git server or repository failed, which backs the track off).
 * `unreadable`: fetched, but its tree is refused or too large to read: broken like a commit that
 * does not parse. `read`: its manifests, or (`errors`) why it does not parse.
 */
export type SourceOutcome = { head?: HeadListing } & (
  | { state: 'unfetched'; error: string; gitFailure: boolean; credentialsFailed?: true }
  | { state: 'unreadable'; commit: string; error: string }
  | {
      state: 'read';
      commit: string;
      files: number;
      /** Set when a kustomization was rendered: its path. */
      kustomization?: string;
      /** Set when a Helm chart was rendered (spec.helm): the chart, its release and the hooks left out. */
      helm?: HelmSourceReport;
      manifests: Manifest[];
      errors: string[];
      /** Set when only the files changed since the last applied commit were read: `manifests` are theirs. */
      incremental?: IncrementalRead;
    }
);

/** What an incremental read found (lib/reconcile/incrementalSource.ts). */
export interface IncrementalRead {
  /** The last applied commit the files were compared with. */
  from: string;
  /** Every manifest file that differs (added, changed, deleted), by repository path. */
  paths: string[];
  /** The objects the changed and deleted files held at `from`. */
  before: Manifest[];
  /** The objects of another (unchanged) file of the commit; undefined when no such file is there. */
  fileAt: (path: string) => Promise<Manifest[] | undefined>;
}

/** A rendered chart: where it is in the repository, its release, and its hooks. */
export interface HelmSourceReport {
  chart: string;
  release: string;
  namespace: string;
  /** The hooks this apply does not run (all of them unless spec.helm.hooks is Run). */
  hooks: SkippedHook[];
  /** spec.helm.hooks Run: the hooks of this apply's stages. */
  run?: HookRun;
  /** Objects whose fields differ between two renders of the commit (RenderNondeterministic). */
  nondeterministic: VaryingReport[];
}

/** `Kind/ns/name` (or the template, when it renders another set of objects) and its differing fields. */
export interface VaryingReport {
  subject: string;
  /** JSON pointers; empty: the template renders a different set of objects each time. */
  fields: string[];
}

/** The commit's objects for this track, as the ownership table and the ignore rules leave them. */
export interface PlanOutcome {
  planned: PlannedObject[];
  /** Objects refused while planning, as `failed` changes. */
  failed: Change[];
  ignored: IgnoredManifest[];
}

export interface ApplyOutcome {
  changes: Change[];
  /** Objects never taken: the time budget ran out. */
  notTaken: number;
  /**
   * Set when the API server's dry-run refused objects of the commit (their `failed` changes): nothing
   * more was written; `written` objects (the commit's namespaces and CRDs they needed) were before.
   */
  refused?: { written: number };
  statusModes: TrackerStatusModes;
  /** The tracking objects' conditions after the apply, when it knows them all (for the health step). */
  trackerConditions: TrackerConditions | undefined;
}

/**
 * An incremental run: how many files changed since `from`, and what the changed and deleted files
 * held there, counted as a whole run counts, so the track's counters stay those of the whole track.
 */
export interface IncrementalOutcome {
  from: string;
  paths: string[];
  before: { discovered: number; planned: number; ignored: number };
  /** Objects of the whole track after this run (the unchanged files' and the changed files'). */
  planned: number;
}

/** What prune did, or why it did nothing. */
export type PruneOutcome =
  | { state: 'disabled' }
  | { state: 'skipped'; errors: number }
  | { state: 'refused'; stale: number }
  | { state: 'pruned'; changes: Change[] };

/** What the hooks of a run did (spec.helm.hooks Run): the stage before the chart's objects, the one after their health. */
export interface HooksOutcome {
  pre?: HookStageOutcome;
  post?: HookStageOutcome;
}

export type HealthOutcome =
  | { state: 'assessed'; health: HealthSummary; finding: HealthFinding }
  | { state: 'unknown'; error: string };

/** Everything a run found out, phase by phase; a phase that did not run is absent. */
export interface RunOutcomes {
  request: ReconcileRequest;
  /** spec.suspend stopped the run before anything was read. */
  suspended?: true;
  /** Why this continuation stands down (another commit superseded it). */
  superseded?: string;
  /** spec.dependsOn held the run back (nothing fetched, applied or pruned). */
  dependencies?: Exclude<DependencyCheck, { state: 'ready' }>;
  /** Which commit the run applies, and the track's pin. */
  choice?: CommitChoice;
  source?: SourceOutcome;
  plan?: PlanOutcome;
  /** A chart's hooks that ran (or could not): a failed pre stage means nothing applied or pruned. */
  hooks?: HooksOutcome;
  apply?: ApplyOutcome;
  prune?: PruneOutcome;
  health?: HealthOutcome;
  /** The run applied the definitions itself and left the rest to shards (lib/reconcile/shardPhase.ts). */
  shards?: ShardsReport;
  /** Set when the run applied only the files changed since the last applied commit. */
  incremental?: IncrementalOutcome;
  /** The API server failed the apply or the prune mid-way (discovery, a LIST): nothing more pruned. */
  applyError?: string;
  /** The track's lease was lost (before prune or status): the run stops, no status written. */
  leaseLost?: string;
  /** Write requests so far: objects (apply, prune), health (Healthy conditions), the track's own (Events, the digest key). */
  writes: { objects: number; health: number; status: number };
}

/** The ways a run ends (ReconcileSummary.result, lower-cased). */
export type Finished = 'succeeded' | 'failed' | 'suspended' | 'aborted' | 'continuing' | 'waiting';

/** The commit does not parse (or its tree cannot be read): nothing of it is applied or pruned. */
export const isBroken = (o: RunOutcomes): boolean =>
  o.source?.state === 'unreadable' || (o.source?.state === 'read' && o.source.errors.length > 0);

/** The changes of the run so far, in order: refused while planning, applied, pruned. */
export const runChanges = (o: RunOutcomes): Change[] => [
  ...(o.plan?.failed ?? []),
  ...(o.apply?.changes ?? []),
  ...(o.prune?.state === 'pruned' ? o.prune.changes : []),
];

/** Objects that failed to plan or apply (prune failures apart). */
export const applyFailures = (o: RunOutcomes): Change[] =>
  [...(o.plan?.failed ?? []), ...(o.apply?.changes ?? [])].filter((c) => c.action === 'failed');

/** The time budget ran out before every object was taken, and nothing failed: another run goes on. */
export const isContinuing = (o: RunOutcomes): boolean =>
  o.apply !== undefined && o.apply.notTaken > 0 && applyFailures(o).length === 0;
