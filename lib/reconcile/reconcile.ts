import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DeploymentConfig, trackRefusal } from '../config/deploymentModes';
import { dependencyGate } from '../depends/dependencyGate';
import { withDependents } from '../depends/withDependents';
import { ConfigError, isGitFetchError, isGitLimitError, isLeaseLost, isLightkeeperError } from '../errors';
import { fetchCommit, type GitAuth, type ManifestFile, readManifestFiles } from '../git';
import { isRefusedTree } from '../git/readTypedObject';
import { trackClient } from '../identity/trackIdentity';
import type { KubeClient } from '../kube/kubeClient';
import { withoutKustomizationFiles } from '../kustomize/kustomizationFile';
import { type KustomizeRender, renderKustomization } from '../kustomize/renderKustomization';
import { leaseNamespaceFrom } from '../lease/leaseTarget';
import { parseManifests } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import { loadTrack } from '../track/loadTrack';
import { readGitAuth } from '../track/readGitAuth';
import { trackLabel } from '../track/trackRef';
import { applyAndPrune } from './applyAndPrune';
import { checkHealth } from './checkHealth';
import { readClusterState } from './clusterState';
import { finishBroken } from './finishBroken';
import { finishReconcile, type ReconcileRun } from './finishReconcile';
import { isSuspendedFor, pinnedCommit, supersededContinuation } from './pinnedCommit';
import { processParseCache } from './processParseCache';
import { recordEvent } from './recordEvent';
import { reportPin } from './reportPin';
import { gitDeadline } from './timeBudget';
import type { ReconcileRequest, ReconcileSummary } from './types';

export type ReconcilePhase = 'fetch' | 'parse' | 'apply' | 'prune' | 'health' | 'status';

export interface ReconcileDeps {
  client: KubeClient;
  config: DeploymentConfig;
  /** Requests in flight at once while applying (default 16). */
  concurrency?: number;
  /** Bound for waiting on CRDs and on recreated objects (default 120 s). */
  waitTimeoutMs?: number;
  /** Where clones are kept and reused (default: the OS temp dir). */
  gitCacheRoot?: string;
  onProgress?: (phase: ReconcilePhase, done?: number, total?: number) => void;
  /**
   * Called once the track's commit is fetched with the track's own credentials (so the track can
   * read that repository), with the repository fetched: what the reconcile function posts a push's
   * `pending` status on. A run that fetched nothing (a fetch that failed, a held-back or suspended
   * run) never calls it.
   */
  onFetched?: (fetched: { commit: string; repository: string }) => void;
  /**
   * Asked right before prune and before the status is written: throws a LeaseLostError when this
   * run may no longer write (its track lease was lost). The run then stops with result `Aborted`:
   * nothing pruned, no status written (the newer holder owns it).
   */
  guard?: () => Promise<void>;
  /**
   * How long this run may apply, read when it starts (lib/reconcile/timeBudget; the function passes
   * the invocation's remaining time less a margin). Once spent the run stops taking new objects,
   * prunes nothing and ends `Continuing`; the caller starts another run of the same commit.
   * Default: no limit.
   */
  timeBudgetMs?: number | (() => number);
  /**
   * Asked while a run waits for health (spec.healthTimeout): true when a newer reconcile of the same
   * track is queued, and the wait stops so it is not held back. Default: never.
   */
  newerRunQueued?: () => Promise<boolean>;
  /**
   * The reconciler's own namespace, where the key of tracking-object digests is kept
   * (lib/apply/digestKey.ts). Default: its lease namespace (`LIGHTKEEPER_LEASE_NAMESPACE`, else
   * lightkeeper-system).
   */
  keyNamespace?: string;
}

/**
 * One reconcile of one track: fetch → parse → partition → apply → prune → status. Used by the
 * CLI, the reconcile function (webhook, sweep, replay). Never prunes after any error.
 */
export async function reconcile(deps: ReconcileDeps, request: ReconcileRequest): Promise<ReconcileSummary> {
  const refusal = trackRefusal(deps.config, request.track);
  if (refusal)
    throw new ConfigError(`${trackLabel(request.track)}: ${refusal}`, { subject: trackLabel(request.track) });
  const { client } = deps;
  const track = await loadTrack(client, request.track);
  const started = Date.now();
  const budget = typeof deps.timeBudgetMs === 'function' ? deps.timeBudgetMs() : deps.timeBudgetMs;
  const run: ReconcileRun = {
    deps,
    request,
    track,
    started,
    deadline: budget === undefined ? undefined : started + budget,
    writesBefore: client.stats.writes,
    trackWrites: 0,
    conditions: {},
    changes: [],
    ignored: [],
    errors: [],
    discovered: 0,
  };
  if (isSuspendedFor(track.spec, request)) return finishReconcile(run, 'suspended');
  const superseded = supersededContinuation(track, request);
  if (superseded) {
    run.errors.push(superseded);
    return finishReconcile(run, 'aborted');
  }
  // A continuation goes on with a commit whose dependencies were checked when its chain began.
  if (!request.continuation) {
    const held = await dependencyGate(run);
    if (held) return held;
  }
  const choice = pinnedCommit(track.spec, request);

  const progress = deps.onProgress ?? (() => {});
  // Read while the commit is fetched and parsed; every path below waits for it before it ends.
  const clusterState = readClusterState(client, trackOwner(track), deps.keyNamespace ?? leaseNamespaceFrom());
  let files: ManifestFile[];
  let cloneDir = '';
  try {
    progress('fetch');
    const auth: GitAuth | undefined = await readGitAuth(trackClient(client, track, deps.config), track);
    await reportPin(run, choice, auth);
    const fetched = await fetchCommit({
      url: track.spec.repository,
      reference: choice.reference,
      auth,
      cacheRoot: deps.gitCacheRoot ?? join(tmpdir(), 'lightkeeper-git'),
      deadline: gitDeadline(run.deadline),
    });
    run.commit = fetched.commit;
    cloneDir = fetched.dir;
    deps.onFetched?.({ commit: fetched.commit, repository: track.spec.repository });
    files = await readManifestFiles({
      dir: fetched.dir,
      commit: fetched.commit,
      indexed: fetched.indexed,
      subPath: track.spec.subPath ?? '',
    });
    if (fetched.commit !== track.status?.lastAppliedCommit) {
      const why = request.reason ? ` (${request.reason})` : '';
      await recordEvent(
        client,
        track,
        'Normal',
        'ReconcileStarted',
        `reconciling ${fetched.commit}${why}`,
      ).catch(() => {});
      run.trackWrites++;
    }
    run.conditions.Fetched = {
      status: 'True',
      reason: 'Fetched',
      message: `fetched ${fetched.commit} (${files.length} files)`,
    };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    run.errors.push(e.message);
    await clusterState.settled();
    // A tree git refuses (`..`, `.git`, a name twice), or a commit fetched but too large to read
    // (a GitLimitError past a read limit): broken like a commit that does not parse.
    if (isRefusedTree(e) || (isGitLimitError(e) && run.commit !== undefined)) {
      run.conditions.Fetched = { status: 'True', reason: 'Fetched', message: `fetched ${run.commit}` };
      run.conditions.Parsed = { status: 'False', reason: 'ParseFailed', message: e.message };
      return finishBroken(run, 'ParseFailed');
    }
    run.conditions.Fetched = { status: 'False', reason: 'FetchFailed', message: e.message };
    // The git server or repository failed (a transfer limit included), not the cluster: the sweep
    // backs the track off.
    run.fetchFailed = isGitFetchError(e) || isGitLimitError(e);
    return finishReconcile(run, 'failed');
  }

  progress('parse');
  // A kustomization in subPath is rendered first; its objects then go the way files go.
  const render: KustomizeRender | undefined = await renderKustomization({
    source: { kind: 'commit', dir: cloneDir, commit: run.commit as string },
    subPath: track.spec.subPath ?? '',
    spec: track.spec.kustomize,
    trackKind: track.kind,
    remoteHosts: deps.config.kustomizeRemoteHosts,
  });
  const parsed = render
    ? render.errors.length > 0
      ? { manifests: [], errors: render.errors }
      : parseManifests(render.files, { cache: processParseCache() })
    : parseManifests(track.spec.kustomize?.enabled === false ? withoutKustomizationFiles(files) : files, {
        cache: processParseCache(),
      });
  run.discovered = parsed.manifests.length;
  run.errors.push(...parsed.errors.map((e) => e.message));
  run.conditions.Parsed =
    parsed.errors.length === 0
      ? {
          status: 'True',
          reason: 'Parsed',
          message: render
            ? `${parsed.manifests.length} objects rendered by kustomize from ${render.kustomization}`
            : `${parsed.manifests.length} objects in ${files.length} files`,
        }
      : { status: 'False', reason: 'ParseFailed', message: parsed.errors.map((e) => e.message).join('\n') };
  // A commit that does not parse is broken: none of it is applied, nothing pruned (as Flux does
  // when a build fails). The cluster keeps running what it ran.
  if (parsed.errors.length > 0) {
    await clusterState.settled();
    return finishBroken(run, 'ParseFailed');
  }

  try {
    await applyAndPrune(run, parsed.manifests, progress, clusterState);
  } catch (e) {
    if (isLeaseLost(e)) {
      run.errors.push(e.message);
      return finishReconcile(run, 'aborted');
    }
    // The API server failed us mid-way (discovery, a LIST): report it; nothing is pruned.
    if (!isLightkeeperError(e)) throw e;
    run.errors.push(e.message);
    run.conditions.Applied = { status: 'False', reason: 'ApplyFailed', message: e.message };
  }
  // Health after prune, never before it: what is pruned does not depend on health.
  if (!run.continuing) {
    progress('health');
    await checkHealth(run);
  }
  progress('status');
  if (run.continuing && run.errors.length === 0) return finishReconcile(run, 'continuing');
  // A conflict is no error (it does not stop the prune), but the commit is not fully applied.
  const conflicts = run.changes.some((c) => c.action === 'conflict');
  return withDependents(
    run,
    await finishReconcile(run, run.errors.length === 0 && !conflicts ? 'succeeded' : 'failed'),
  );
}
