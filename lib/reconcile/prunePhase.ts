import { pruneTrackers } from '../apply/prune';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import type { Manifest } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import type { LiveTracker } from '../tracker/liveTracker';
import type { PhaseContext } from './applyPhase';
import type { ClusterState } from './clusterState';
import type { PlanOutcome, PruneOutcome } from './outcomes';
import { staleTrackers } from './staleTrackers';

/**
 * Whether to prune (pure): never when spec.prune is false, never after any error of this run
 * (`errors`: fetch, parse and apply failures; conflicts are not errors), and never everything
 * (`stale` objects, none `planned`) unless spec.allowEmpty.
 */
export function pruneVerdict(
  spec: { prune?: boolean | undefined; allowEmpty?: boolean | undefined },
  errors: number,
  stale: number,
  planned: number,
): 'disabled' | 'skipped' | 'refused' | 'prune' {
  if (spec.prune === false) return 'disabled';
  if (errors > 0) return 'skipped';
  if (stale > 0 && planned === 0 && !spec.allowEmpty) return 'refused';
  return 'prune';
}

/**
 * Prunes the tracking objects (and children) the commit no longer has, as pruneVerdict allows.
 * Asks the lease guard first: a run that lost its lease throws here, before deleting anything.
 * `narrowed` (an incremental run): only the stale tracking objects `only` keeps, and the objects of
 * the whole track after the run, `planned`, for the verdict.
 */
export async function pruneStale(
  { deps, track, progress }: PhaseContext,
  plan: PlanOutcome,
  manifests: readonly Manifest[],
  cluster: ClusterState,
  errors: number,
  narrowed?: { only: (t: LiveTracker) => boolean; planned: number },
): Promise<{ outcome: PruneOutcome; writes: number }> {
  const owner = trackOwner(track);
  const stale = staleTrackers(cluster.trackers, plan.planned, manifests, owner.uid).filter(
    (t) => narrowed?.only(t) ?? true,
  );
  const planned = narrowed?.planned ?? plan.planned.length;
  const verdict = pruneVerdict(track.spec, errors, stale.length, planned);
  if (verdict === 'disabled') return { outcome: { state: 'disabled' }, writes: 0 };
  if (verdict === 'skipped') return { outcome: { state: 'skipped', errors }, writes: 0 };
  if (verdict === 'refused') return { outcome: { state: 'refused', stale: stale.length }, writes: 0 };
  if (stale.length > 0) await deps.guard?.();
  const { client } = deps;
  const before = client.stats.writes;
  progress('prune', 0, stale.length);
  const childClient = clientAs(client, trackIdentity(track, deps.config));
  const changes = await pruneTrackers(
    { client, childClient, discovery: cluster.discovery, track: owner },
    stale,
  );
  return { outcome: { state: 'pruned', changes }, writes: client.stats.writes - before };
}
