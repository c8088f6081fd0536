import type { KubeClient } from '../kube/kubeClient';
import { trackPath } from '../track/loadTrack';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import type { Conclusion } from './conclude';
import { recordEvent } from './recordEvent';
import type { ReconcileSummary } from './types';

/**
 * The one write of a run's end: the track's status (a merge patch, unless the run stopped) and its
 * Events (a failed Event never fails the run). Returns the summary with these writes counted.
 */
export async function writeStatus(
  client: KubeClient,
  track: TrackObject,
  conclusion: Conclusion,
): Promise<ReconcileSummary> {
  const { summary } = conclusion;
  const before = client.stats.writes;
  if (conclusion.status)
    await client.request('PATCH', trackPath(summary.track, 'status'), {
      body: conclusion.status,
      contentType: 'application/merge-patch+json',
      subject: trackLabel(summary.track),
    });
  await Promise.all(
    conclusion.events.map((ev) => recordEvent(client, track, ev.type, ev.reason, ev.message).catch(() => {})),
  );
  const status = summary.writes.status + client.stats.writes - before;
  return { ...summary, writes: { ...summary.writes, status } };
}
