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
 * bounded like a fetch and by the run's `deadline` (epoch ms) when given.
 */
export async function checkDependencies(
  client: KubeClient,
  config: DeploymentConfig,
  track: TrackObject,
  deadline?: number,
): Promise<DependencyCheck> {
  const own = dependencyRefs(track);
  if ('refusal' in own) return { state: 'refused', reason: 'DependencyRefused', message: own.refusal };
  if (own.refs.length === 0) return { state: 'ready' };
  const self = trackRefOf(track);
  const { loaded, edges } = await loadGraph(client, self, own.refs);
  const cycle = findCycle(self, (ref) => edges.get(trackLabel(ref)));
  if (cycle)
    return {
      state: 'refused',
      reason: 'DependencyCycle',
      message: `dependency cycle: ${formatCycle(cycle)}`,
    };

  const waits = await Promise.all(
    own.refs.map((ref) => waitFor(client, config, ref, loaded.get(trackLabel(ref)), track, deadline)),
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
  deadline: number | undefined,
): Promise<DependencyWait | undefined> {
  if (!entry || 'problem' in entry) return { track: ref, reason: entry?.problem ?? 'not read' };
  const dep = entry.track;
  // A tenant's GitTrack learns nothing of the platform's repository, and never has it listed.
  if (dependent.kind === 'GitTrack' && ref.kind === 'ClusterGitTrack')
    return platformWait(client, config, dependent, ref, dep, deadline);
  const known = intendedCommit(dep.spec);
  const first = dependencyReadiness(dep, known ?? dep.status?.lastAppliedCommit ?? '');
  if (!first.ready) return wait(ref, first);
  if (known) return undefined;
  try {
    const verdict = dependencyReadiness(dep, await headOf(client, config, dep, deadline));
    return verdict.ready
      ? undefined
      : wait(ref, { ...verdict, reason: `${verdict.reason} (the head of ${dep.spec.reference})` });
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
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

/** The commit a dependency's reference names now, listed with its credentials as its identity. */
async function headOf(
  client: KubeClient,
  config: DeploymentConfig,
  dep: TrackObject,
  deadline: number | undefined,
): Promise<string> {
  const auth = await readGitAuth(trackClient(client, dep, config), dep);
  const { repository: url, reference } = dep.spec;
  return resolveHead({ url, reference, deadline, ...(auth ? { auth } : {}) });
}
