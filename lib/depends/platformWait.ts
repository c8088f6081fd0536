import { isLightkeeperError } from '../errors';
import { repositoryKey } from '../git/repositoryKey';
import { resolveHead } from '../git/resolveHead';
import { trackClient } from '../identity/trackIdentity';
import type { KubeClient } from '../kube/kubeClient';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { readGitAuth } from '../track/readGitAuth';
import type { TrackObject } from '../track/trackObject';
import type { TrackRef } from '../track/trackRef';
import type { DependencyWait } from './dependencyCheck';
import { dependencyReadiness, intendedCommit } from './dependencyReadiness';
import { type TreeSource, unchangedSinceApplied } from './unchangedSinceApplied';

/**
 * Why a ClusterGitTrack holds a tenant's GitTrack back, or undefined when it does not, told and
 * found out only as the tenant may know it. The reason is a fixed phrase (with the ClusterGitTrack's
 * Ready reason at most): none of its commits, its repository or the head of its reference. And the
 * platform's repository is never listed on a tenant's behalf, with any credentials: a tenant whose
 * runs it could start at will would learn from Waiting or not (and its timing) when the platform
 * pushes. So the ClusterGitTrack is meant to be at its pin or full-SHA reference when its spec names
 * one; else, when the GitTrack follows the same repository, at the head of the ClusterGitTrack's
 * reference listed from the GitTrack's own repository URL with the GitTrack's own credentials, as
 * its identity (what the tenant can read anyway); else at the commit it last applied (Ready at its
 * current generation is enough, as Flux judges a dependency on another source). Behind that head,
 * it still counts as at it when its subPath's tree is the same at both commits (a push that touched
 * only other folders), read from the GitTrack's repository URL with its credentials too. A pinned
 * ClusterGitTrack behind its pin, or one in another repository, is never read for the tenant: it
 * waits as before.
 */
export async function platformWait(
  client: KubeClient,
  config: DeploymentConfig,
  dependent: TrackObject,
  ref: TrackRef,
  dep: TrackObject,
  bounds: Omit<TreeSource, 'url' | 'auth'> = {},
): Promise<DependencyWait | undefined> {
  const spec = intendedCommit(dep.spec);
  const first = dependencyReadiness(dep, spec ?? dep.status?.lastAppliedCommit ?? '', { withheld: true });
  if (!first.ready) return withheldWait(ref, first);
  if (spec || !sameRepository(dependent.spec.repository, dep.spec.repository)) return undefined;
  let head: string;
  let source: TreeSource;
  try {
    const auth = await readGitAuth(trackClient(client, dependent, config), dependent);
    source = { ...bounds, url: dependent.spec.repository, auth };
    head = await resolveHead({
      url: source.url,
      reference: dep.spec.reference,
      deadline: bounds.deadline,
      limits: bounds.limits,
      ...(auth ? { auth } : {}),
    });
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return {
      track: ref,
      reason: `the head of its reference could not be listed from this track's repository: ${e.message}`,
    };
  }
  const verdict = dependencyReadiness(dep, head, { withheld: true });
  if (!verdict.ready && verdict.behind && (await unchangedSinceApplied(dep, head, source))) return undefined;
  return withheldWait(ref, verdict);
}

const withheldWait = (
  track: TrackRef,
  verdict: { ready: true } | { ready: false; reason: string; behind?: true },
): DependencyWait | undefined =>
  verdict.ready ? undefined : { track, reason: verdict.reason, ...(verdict.behind ? { behind: true } : {}) };

/** The same repository in any of its URL forms (lib/git/repositoryKey), else the same string. */
function sameRepository(a: string, b: string): boolean {
  const [ka, kb] = [repositoryKey(a), repositoryKey(b)];
  return ka !== undefined && kb !== undefined ? ka === kb : a === b;
}
