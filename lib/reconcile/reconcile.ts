import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPlan } from '../apply/applyPlan';
import { listTrackers } from '../apply/liveState';
import { pruneTrackers } from '../apply/prune';
import { type DeploymentConfig, trackRefusal } from '../config/deploymentModes';
import { ConfigError, isLightkeeperError } from '../errors';
import { fetchCommit, type ManifestFile, readManifestFiles } from '../git';
import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { parseManifests } from '../manifests';
import { finishReconcile, type ReconcileRun } from './finishReconcile';
import { loadTrack, readGitAuth, trackLabel, trackOwner } from './loadTrack';
import { partition } from './partition';
import { staleTrackers } from './staleTrackers';
import type { ReconcileRequest, ReconcileSummary } from './types';

export type ReconcilePhase = 'fetch' | 'parse' | 'apply' | 'prune' | 'status';

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
  const run: ReconcileRun = {
    deps,
    request,
    track,
    started: Date.now(),
    writesBefore: client.stats.writes,
    conditions: {},
    changes: [],
    ignored: [],
    errors: [],
    discovered: 0,
  };
  if (track.spec.suspend) return finishReconcile(run, 'suspended');

  const progress = deps.onProgress ?? (() => {});
  let files: ManifestFile[];
  try {
    progress('fetch');
    const fetched = await fetchCommit({
      url: track.spec.repository,
      reference: request.commit ?? track.spec.reference,
      auth: await readGitAuth(client, track),
      cacheRoot: deps.gitCacheRoot ?? join(tmpdir(), 'lightkeeper-git'),
    });
    run.commit = fetched.commit;
    files = await readManifestFiles({
      dir: fetched.dir,
      commit: fetched.commit,
      subPath: track.spec.subPath ?? '',
    });
    run.conditions.Fetched = {
      status: 'True',
      reason: 'Fetched',
      message: `fetched ${fetched.commit} (${files.length} files)`,
    };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    run.errors.push(e.message);
    run.conditions.Fetched = { status: 'False', reason: 'FetchFailed', message: e.message };
    return finishReconcile(run, 'failed');
  }

  progress('parse');
  const parsed = parseManifests(files);
  run.discovered = parsed.manifests.length;
  run.errors.push(...parsed.errors.map((e) => e.message));
  run.conditions.Parsed =
    parsed.errors.length === 0
      ? {
          status: 'True',
          reason: 'Parsed',
          message: `${parsed.manifests.length} objects in ${files.length} files`,
        }
      : { status: 'False', reason: 'ParseFailed', message: parsed.errors.map((e) => e.message).join('\n') };

  const discovery = await new Discovery(client).refresh();
  const owner = trackOwner(track);
  const plan = partition(parsed.manifests, owner, deps.config, discovery);
  run.ignored = plan.ignored;
  for (const f of plan.failed) {
    run.changes.push({ subject: f.subject, action: 'failed', message: f.message });
  }

  const sa = track.spec.serviceAccountName;
  const childClient = sa
    ? client.impersonating(`system:serviceaccount:${track.metadata.namespace}:${sa}`)
    : client;
  const trackers = await listTrackers(client, owner);
  progress('apply', 0, plan.planned.length);
  run.changes.push(
    ...(await applyPlan(
      {
        client,
        childClient,
        discovery,
        track: owner,
        commit: run.commit,
        trackers,
        concurrency: deps.concurrency ?? 16,
        waitTimeoutMs: deps.waitTimeoutMs ?? 120_000,
        onProgress: (done, total) => progress('apply', done, total),
      },
      plan.planned,
    )),
  );
  const failures = run.changes.filter((c) => c.action === 'failed');
  run.errors.push(...failures.map((c) => c.message ?? c.subject));
  run.conditions.Applied =
    failures.length === 0
      ? { status: 'True', reason: 'Applied', message: `${plan.planned.length} objects match ${run.commit}` }
      : {
          status: 'False',
          reason: 'ApplyFailed',
          message: `${failures.length} objects failed:\n${failures.map((c) => c.message).join('\n')}`,
        };

  if (track.spec.prune === false) {
    run.conditions.Pruned = { status: 'True', reason: 'PruneDisabled', message: 'spec.prune is false' };
  } else if (run.errors.length > 0) {
    run.conditions.Pruned = {
      status: 'False',
      reason: 'PruneSkipped',
      message: `nothing pruned: this reconcile had ${run.errors.length} errors`,
    };
  } else {
    const stale = staleTrackers(trackers, plan.planned, parsed.manifests);
    if (stale.length > 0 && plan.planned.length === 0 && !track.spec.allowEmpty) {
      const message = `refusing to prune all ${stale.length} tracked objects: ${run.commit} has no manifests for this track (set spec.allowEmpty to allow)`;
      run.errors.push(message);
      run.conditions.Pruned = { status: 'False', reason: 'PruneRefused', message };
    } else {
      progress('prune', 0, stale.length);
      const pruned = await pruneTrackers(client, childClient, discovery, stale);
      run.changes.push(...pruned);
      const failed = pruned.filter((c) => c.action === 'failed');
      run.errors.push(...failed.map((c) => c.message ?? c.subject));
      run.conditions.Pruned =
        failed.length === 0
          ? { status: 'True', reason: 'Pruned', message: `pruned ${pruned.length} objects` }
          : { status: 'False', reason: 'PruneFailed', message: failed.map((c) => c.message).join('\n') };
    }
  }
  progress('status');
  return finishReconcile(run, run.errors.length === 0 ? 'succeeded' : 'failed');
}
