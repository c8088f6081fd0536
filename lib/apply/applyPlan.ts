import pLimit from 'p-limit';
import { isLightkeeperError } from '../errors';
import type { TrackIdentity } from '../identity/trackIdentity';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import type { KubeObject } from '../manifests';
import type { TrackOwner } from '../ownership/ownershipTable';
import { type PlannedObject, typeKey } from '../plan/plannedObject';
import { stageOrder } from '../plan/stages';
import type { LiveTracker } from '../tracker/liveTracker';
import type { TrackerStatusModes } from '../tracker/patchTrackerStatus';
import type { WrittenConditions } from '../tracker/writtenConditions';
import type { ApplyContext } from './applyContext';
import { applyObject } from './applyObject';
import type { Change } from './change';
import { type LiveChildren, listChildren } from './liveChildren';
import { dryRunAll, splitValidation, unreadableRefusals } from './validateChanges';
import { waitForDefinitions } from './waitForDefinitions';

export interface ApplyPlanOptions {
  client: KubeClient;
  childClient: KubeClient;
  /** Who `childClient` acts as. */
  identity: TrackIdentity;
  discovery: Discovery;
  track: TrackOwner;
  commit: string;
  trackers: ReadonlyMap<string, LiveTracker>;
  statusModes: TrackerStatusModes;
  /** Receives every status the apply writes on a tracking object. */
  written: WrittenConditions;
  /** Requests in flight at once; the API server's CPU is the limit, not the network. */
  concurrency: number;
  waitTimeoutMs: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * Asked before each object is taken, with how many objects this run has written (created or
   * configured) so far: true stops taking new ones. Those in flight finish; later stages do not start.
   * The objects never taken have no change: the caller finds them missing from the result.
   */
  shouldStop?: (written: number) => boolean;
  /** Dry-run every object to write before writing (default true). */
  validate?: boolean;
  /**
   * Called once, after validation and the definitions stage, before any other object is written (a
   * chart's pre-install / pre-upgrade hooks, as Helm runs them after crds/): a reason holds every
   * object of the later stages back, each `failed` with it.
   */
  beforeResources?: () => Promise<string | undefined>;
  /** How the live children are read (default listChildren: one LIST per type; getChildren for a few objects). */
  readChildren?: (
    client: KubeClient,
    track: TrackOwner,
    planned: readonly PlannedObject[],
  ) => Promise<LiveChildren>;
}

const writes: ReadonlySet<Change['action']> = new Set(['created', 'configured']);

/** What an apply did; `refused` when validation stopped it, with how many objects it had written by then. */
export interface PlanApplied {
  changes: Change[];
  refused?: { written: number };
}

/**
 * Applies a plan stage by stage (definitions, waited for; resources; interceptors). A stage that
 * fails stops the later ones: custom resources of a CRD that did not establish cannot apply.
 * `shouldStop` ends it early at an object boundary (a run's time budget).
 *
 * Unless `validate` is false, every object it will write is dry-run first (lib/apply/validateChanges.ts):
 * those whose namespace and type exist before anything is written; those that need a namespace or
 * CRD of the commit once the definitions stage is written, before the next stage. A refusal writes
 * nothing more: the refusals are the failed changes, the objects in sync `unchanged`, the other
 * objects have no change.
 */
export async function applyPlan(
  options: ApplyPlanOptions,
  planned: readonly PlannedObject[],
): Promise<PlanApplied> {
  const limit = pLimit(options.concurrency);
  const changes: Change[] = [];
  let done = 0;
  let written = 0;
  let stopped = false;
  const stop = () => {
    stopped ||= options.shouldStop?.(written) ?? false;
    return stopped;
  };
  const readChildren = options.readChildren ?? listChildren;
  let live = await readChildren(options.childClient, options.track, planned);
  const validated = new Set<string>();
  const read = new Map<string, KubeObject | undefined>();
  const ctxOf = (l: LiveChildren): ApplyContext => ({
    ...options,
    children: l.children,
    recreateTimeoutMs: options.waitTimeoutMs,
    validated,
    read,
  });
  // Refused: nothing more is written; what is in sync says so, for health and the report.
  const refusal = (refused: Change[], unchanged: readonly PlannedObject[]): PlanApplied => {
    const taken = new Set(changes.map((c) => c.subject));
    const rest = unchanged.filter((p) => !taken.has(p.subject));
    changes.push(...refused, ...rest.map((p): Change => ({ subject: p.subject, action: 'unchanged' })));
    return { changes, refused: { written } };
  };
  let awaiting: PlannedObject[] = [];
  let unchanged: PlannedObject[] = [];
  if (options.validate !== false) {
    const unreadable = unreadableRefusals(planned, live.unreadable);
    const readable = planned.filter((p) => !live.unreadable.has(typeKey(p.resource)));
    const split = await splitValidation(ctxOf(live), readable, options.discovery);
    const refused = [...unreadable, ...(await dryRunAll(ctxOf(live), split.now, limit))];
    if (refused.length > 0) return refusal(refused, split.unchanged);
    for (const p of split.now) validated.add(p.key);
    ({ afterDefinitions: awaiting, unchanged } = split);
  }
  let gated = false;
  const gate = async (stage: string) => {
    if (gated || stage === 'definitions' || !options.beforeResources) return undefined;
    gated = true;
    return options.beforeResources();
  };
  for (const stage of stageOrder) {
    const batch = planned.filter((p) => p.stage === stage);
    if (batch.length === 0) continue;
    if (awaiting.length > 0 && stage !== 'definitions') {
      // The definitions stage is written: what waited for it is validated before anything else.
      const refused = await dryRunAll(ctxOf(live), awaiting, limit);
      if (refused.length > 0) return refusal(refused, unchanged);
      for (const p of awaiting) validated.add(p.key);
      awaiting = [];
    }
    // Validated whole, and before the time budget is asked: a continuation does not run what comes before the resources again.
    const held = await gate(stage);
    if (held !== undefined) {
      const rest = planned.filter((p) => stageOrder.indexOf(p.stage) >= stageOrder.indexOf(stage));
      for (const p of rest)
        changes.push({ subject: p.subject, action: 'failed', message: `${p.subject}: not applied: ${held}` });
      return { changes };
    }
    if (stop()) break;
    const { unreadable } = live;
    const ctx = ctxOf(live);
    const results = await Promise.all(
      batch.map((p) =>
        limit(async (): Promise<Change | undefined> => {
          if (stop()) return undefined;
          // Without its live state an object cannot be checked for ownership: it fails, the others go on.
          const readError = unreadable.get(typeKey(p.resource));
          const change: Change = readError
            ? { subject: p.subject, action: 'failed', message: `${p.subject}: ${readError.message}` }
            : await applyObject(ctx, p);
          if (writes.has(change.action)) written++;
          options.onProgress?.(++done, planned.length);
          return change;
        }),
      ),
    );
    const taken = results.filter((c): c is Change => c !== undefined);
    changes.push(...taken);
    if (stopped) break;
    if (taken.some((c) => c.action === 'failed')) {
      const rest = planned.filter((p) => stageOrder.indexOf(p.stage) > stageOrder.indexOf(stage));
      for (const p of rest) {
        changes.push({
          subject: p.subject,
          action: 'failed',
          message: `${p.subject}: not applied: the ${stage} stage failed`,
        });
      }
      break;
    }
    if (stage === 'definitions') {
      try {
        await waitForDefinitions(options.client, batch, options.waitTimeoutMs);
      } catch (e) {
        if (!isLightkeeperError(e)) throw e;
        const rest = planned.filter((p) => p.stage !== 'definitions');
        for (const p of rest) changes.push({ subject: p.subject, action: 'failed', message: e.message });
        break;
      }
      // Namespaces add no resource types: only new CRDs make discovery stale, and the types they serve.
      const crds = batch.some(
        (p) =>
          p.manifest.ref.group === 'apiextensions.k8s.io' &&
          p.manifest.ref.kind === 'CustomResourceDefinition',
      );
      if (crds) {
        await options.discovery.refresh();
        live = await readChildren(
          options.childClient,
          options.track,
          planned.filter((p) => p.stage !== 'definitions'),
        );
      }
    }
  }
  // A plan of definitions only: what comes before the resources still runs, once they are in.
  if (!stopped && !changes.some((c) => c.action === 'failed')) await gate('resources');
  return { changes };
}
