import { isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { trackPath } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import type { Conclusion } from './conclude';
import { recordEvent } from './recordEvent';
import type { AwaitedHealthChange, ReconcileSummary } from './types';

/**
 * The one write of a run's end: the track's status (a merge patch, unless the run stopped), with the
 * settled-health record when the caller keeps one, and its Events (a failed Event never fails the
 * run). Clearing a record to post it is guarded by the resourceVersion the run read: if the track
 * changed meanwhile, the status is written without it and nothing is posted (a later run does).
 * Returns the summary with these writes counted.
 */
export async function writeStatus(
  client: KubeClient,
  track: TrackObject,
  conclusion: Conclusion,
  awaited?: AwaitedHealthChange | undefined,
): Promise<ReconcileSummary> {
  const { summary } = conclusion;
  const before = client.stats.writes;
  let awaitedHealth = awaited;
  if (conclusion.status) {
    const patch = (body: object) =>
      client.request('PATCH', trackPath(summary.track, 'status'), {
        body,
        contentType: 'application/merge-patch+json',
        subject: trackLabel(summary.track),
      });
    const record =
      awaited && !('keep' in awaited) ? ('record' in awaited ? awaited.record : null) : undefined;
    const status = {
      ...conclusion.status.status,
      ...(record !== undefined ? { awaitingHealthStatus: record } : {}),
    };
    const guarded = awaited !== undefined && 'clear' in awaited && awaited.post;
    const metadata = guarded ? { metadata: { resourceVersion: track.metadata.resourceVersion } } : {};
    try {
      await patch({ ...metadata, status });
    } catch (e) {
      if (!guarded || !isConflict(e)) throw e;
      await patch(conclusion.status);
      awaitedHealth = { keep: 'the track changed meanwhile' };
    }
  }
  await Promise.all(
    conclusion.events.map((ev) => recordEvent(client, track, ev.type, ev.reason, ev.message).catch(() => {})),
  );
  const status = summary.writes.status + client.stats.writes - before;
  return { ...summary, writes: { ...summary.writes, status }, ...(awaitedHealth ? { awaitedHealth } : {}) };
}
