import { isKubeApiError, isLightkeeperError } from '../errors';
import { resolveHead } from '../git/resolveHead';
import { trackClient } from '../identity/trackIdentity';
import type { KubeClient } from '../kube/kubeClient';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { trackPath } from '../track/loadTrack';
import { readGitAuth } from '../track/readGitAuth';
import type { TrackObject } from '../track/trackObject';
import { type TrackRef, trackLabel, trackRefOf } from '../track/trackRef';
import type { DependencyCheck, DependencyWait } from './dependencyCheck';
import { dependencyReadiness, intendedCommit } from './dependencyReadiness';
import { dependencyRefs } from './dependencyRefs';
import { findCycle, formatCycle } from './findCycle';
import { platformWait } from './platformWait';
import { type TreeSource, unchangedSinceApplied } from './unchangedSinceApplied';

/** At most this many tracks are read to look for a cycle through the track. */
const maxTracks = 100;

type Loaded = { track: TrackObject } | { problem: string };

/**
 * Whether a track may be applied now: every track its `spec.dependsOn` names is Ready at its
 * current commit (lib/depends/dependencyReadiness). Refused: a dependency the rules do not allow
 * (dependencyRefs), or a cycle through the track. Tracks are read as the reconciler (they are
 * its own objects; a GitTrack reaches only its namespace and ClusterGitTracks); a dependency's
 * head is listed with its own credentials, read as its own identity (lib/identity) — except a
 * ClusterGitTrack's for a GitTrack, which is judged as the tenant may know it (platformWait) —
 * bounded like a fetch and by the run's `deadline` (epoch ms) when given. A dependency Ready at an
 * older commit whose subPath tree is the same there and at its intended commit counts as Ready
 * (unchangedSinceApplied), read from the same place as its head (its clones kept in `gitCacheRoot`).
 */
export async function checkDependencies(
  client: KubeClient,
  config: DeploymentConfig,
  track: TrackObject,
  deadline?: number,
  gitCacheRoot?: string,
): Promise<DependencyCheck> {
  const own = dependencyRefs(track);
  if ('refusal' in own) return { state: 'refused', reason: 'DependencyRefused', detail: own.refusal };
  if (own.refs.length === 0) return { state: 'ready' };
  const self = trackRefOf(track);
  const { loaded, edges } = await loadGraph(client, self, own.refs);
  const cycle = findCycle(self, (ref) => edges.get(trackLabel(ref)));
  if (cycle) return { state: 'refused', reason: 'DependencyCycle', detail: formatCycle(cycle) };

  const waits = await Promise.all(
    own.refs.map((ref) =>
      waitFor(client, config, ref, loaded.get(trackLabel(ref)), track, {
        deadline,
        cacheRoot: gitCacheRoot,
        limits: config.sourceLimits?.git,
      }),
    ),
  );
  const waiting = waits.filter((w): w is DependencyWait => w !== undefined);
  return waiting.length > 0 ? { state: 'waiting', waiting } : { state: 'ready' };
}

/** Why a dependency holds the track back, or undefined when it is Ready at its current commit. */
async function waitFor(
  client: KubeClient,
  config: DeploymentConfig,
  ref: TrackRef,
  entry: Loaded | undefined,
  dependent: TrackObject,
  bounds: Omit<TreeSource, 'url' | 'auth'>,
): Promise<DependencyWait | undefined> {
  if (!entry || 'problem' in entry) return { track: ref, reason: entry?.problem ?? 'not read' };
  const dep = entry.track;
  // A tenant's GitTrack learns nothing of the platform's repository, and never has it listed.
  if (dependent.kind === 'GitTrack' && ref.kind === 'ClusterGitTrack')
    return platformWait(client, config, dependent, ref, dep, bounds);
  const known = intendedCommit(dep.spec);
  const first = dependencyReadiness(dep, known ?? dep.status?.lastAppliedCommit ?? '');
  if (first.ready && known) return undefined;
  if (!first.ready && !(known && first.behind)) return wait(ref, first);
  // Left: a dependency behind its pin or SHA, or one whose branch's or tag's head must be listed.
  try {
    const source: TreeSource = { ...bounds, ...(await sourceOf(client, config, dep)) };
    const { url, auth, deadline, limits } = source;
    const intended =
      known ??
      (await resolveHead({
        url,
        reference: dep.spec.reference,
        deadline,
        limits,
        ...(auth ? { auth } : {}),
      }));
    const verdict = known ? first : dependencyReadiness(dep, intended);
    if (verdict.ready || (verdict.behind && (await unchangedSinceApplied(dep, intended, source))))
      return undefined;
    return wait(
      ref,
      known ? verdict : { ...verdict, reason: `${verdict.reason} (the head of ${dep.spec.reference})` },
    );
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    if (!first.ready) return wait(ref, first);
    return { track: ref, reason: `the head of ${dep.spec.reference} could not be listed: ${e.message}` };
  }
}

const wait = (track: TrackRef, verdict: { reason: string; behind?: true }): DependencyWait => ({
  track,
  reason: verdict.reason,
  ...(verdict.behind ? { behind: true } : {}),
});

/** The tracks reachable from `self` through dependsOn, breadth first, and their dependencies. */
async function loadGraph(client: KubeClient, self: TrackRef, refs: TrackRef[]) {
  const loaded = new Map<string, Loaded>();
  const edges = new Map<string, TrackRef[]>([[trackLabel(self), refs]]);
  let frontier = refs;
  while (frontier.length > 0 && loaded.size < maxTracks) {
    const fresh = [...new Map(frontier.map((r) => [trackLabel(r), r])).values()].filter(
      (r) => !loaded.has(trackLabel(r)) && !edges.has(trackLabel(r)),
    );
    const found = await Promise.all(fresh.map((ref) => readTrack(client, ref)));
    frontier = [];
    fresh.forEach((ref, i) => {
      const entry = found[i] as Loaded;
      loaded.set(trackLabel(ref), entry);
      if ('problem' in entry) return;
      const next = dependencyRefs(entry.track);
      if ('refusal' in next) return;
      edges.set(trackLabel(ref), next.refs);
      frontier.push(...next.refs);
    });
  }
  return { loaded, edges };
}

async function readTrack(client: KubeClient, ref: TrackRef): Promise<Loaded> {
  try {
    const track = await client.find<TrackObject>(trackPath(ref), { subject: trackLabel(ref) });
    return track ? { track: { ...track, kind: ref.kind } } : { problem: 'not found' };
  } catch (e) {
    if (!isKubeApiError(e)) throw e;
    return { problem: `could not be read: ${e.reason ?? e.status}: ${e.message}` };
  }
}

/** A dependency's repository and credentials, read as its own identity. */
async function sourceOf(client: KubeClient, config: DeploymentConfig, dep: TrackObject) {
  const auth = await readGitAuth(trackClient(client, dep, config), dep);
  return { url: dep.spec.repository, auth };
}
