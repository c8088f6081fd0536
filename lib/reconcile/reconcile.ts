import { withDependents } from '../depends/withDependents';
import { ConfigError, isLeaseLost } from '../errors';
import { trackRefusal } from '../settings/deploymentModes';
import { loadTrack } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import { conclude } from './conclude';
import type { ReconcileDeps } from './reconcileDeps';
import { runPhases } from './runPhases';
import type { ReconcileRequest, ReconcileSummary } from './types';
import { writeStatus } from './writeStatus';

/**
 * One reconcile of one track: the phases (gate, source, plan, apply, prune, health) each return
 * their outcome; conclude() decides; writeStatus() writes the status and Events once; dependents
 * Ready anew are listed last. Used by the CLI and the reconcile function (webhook, sweep, replay).
 * Never prunes after any error.
 */
export async function reconcile(
  deps: ReconcileDeps,
  request: ReconcileRequest,
  /** The track as the caller read it under the track's lease; else read here. */
  loaded?: TrackObject,
): Promise<ReconcileSummary> {
  const refusal = trackRefusal(deps.config, request.track);
  if (refusal)
    throw new ConfigError(`${trackLabel(request.track)}: ${refusal}`, { subject: trackLabel(request.track) });
  const { client } = deps;
  const track = loaded ?? (await loadTrack(client, request.track));
  const started = Date.now();
  const budget = typeof deps.timeBudgetMs === 'function' ? deps.timeBudgetMs() : deps.timeBudgetMs;
  const deadline = budget === undefined ? undefined : started + budget;
  const outcomes = await runPhases(deps, request, track, deadline);
  deps.onProgress?.('status');
  // A run that lost its lease writes no status: the newer holder owns it.
  if (outcomes.superseded === undefined && outcomes.leaseLost === undefined)
    outcomes.leaseLost = await leaseLost(deps.guard);
  const conclusion = conclude(outcomes, track, new Date());
  const awaited =
    conclusion.status &&
    deps.awaitedHealth?.(track.status?.awaitingHealthStatus, conclusion.summary, track.spec.repository);
  const summary = await writeStatus(client, track, conclusion, awaited);
  summary.durationMs = Date.now() - started;
  return withDependents(client, deps.config, track, summary);
}

/** The lease guard's verdict: the LeaseLostError's message, or undefined while the lease is held. */
async function leaseLost(guard: (() => Promise<void>) | undefined): Promise<string | undefined> {
  try {
    await guard?.();
    return undefined;
  } catch (e) {
    if (!isLeaseLost(e)) throw e;
    return e.message;
  }
}
