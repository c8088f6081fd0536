import { ConfigError, isKubeApiError, TrackNotFoundError } from '../errors';
import { parseDuration } from '../kstatus/parseDuration';
import type { KubeClient } from '../kube/kubeClient';
import { requestedAtAnnotation } from '../manifests/metadataKeys';
import { trackPath } from '../track/loadTrack';
import { reconcileHint } from '../track/trackCommandLine';
import type { TrackRef } from '../track/trackRef';
import { trackLabel } from '../track/trackRef';
import { readyOf, waitForTrack } from './waitForReconcile';

/**
 * Asks the deployment to reconcile a track (as `flux reconcile` does): sets the annotation
 * lightkeeper.dev/requestedAt, as the caller, to now; the every-minute check starts a reconcile
 * of a track whose annotation differs from status.lastHandledRequestedAt. Waits for that run
 * unless `timeout` is 0; returns whether it ended Ready.
 */
export async function requestReconcile(
  client: KubeClient,
  ref: TrackRef,
  options: { timeout: string; say: (line: string) => void },
): Promise<boolean> {
  const timeoutMs = parseDuration(options.timeout, '--timeout');
  const label = trackLabel(ref);
  const requestedAt = new Date().toISOString();
  try {
    await client.request('PATCH', trackPath(ref), {
      body: { metadata: { annotations: { [requestedAtAnnotation]: requestedAt } } },
      contentType: 'application/merge-patch+json',
      subject: label,
    });
  } catch (e) {
    if (isKubeApiError(e) && e.status === 404)
      throw new TrackNotFoundError(`${label} not found`, { subject: label });
    if (!isKubeApiError(e) || e.status !== 403) throw e;
    throw new ConfigError(`requesting a reconcile of ${label} needs the right to patch it: ${e.message}`, {
      subject: label,
      cause: e,
      hint: `ask for edit on the track, or reconcile it from here: \`${reconcileHint(ref)}\``,
    });
  }
  options.say(`requested a reconcile of ${label} (${requestedAtAnnotation}=${requestedAt})`);
  if (timeoutMs === 0) return true;
  options.say('waiting for the every-minute check of the deployment to run it');
  const track = await waitForTrack(
    client,
    ref,
    (t) =>
      (t.status as { lastHandledRequestedAt?: string } | undefined)?.lastHandledRequestedAt === requestedAt,
    { timeoutMs, onProgress: options.say, reconcileNow: reconcileHint(ref) },
  );
  const ready = readyOf(track);
  console.log(`Ready ${ready?.status} ${ready?.reason}: ${(ready?.message ?? '').split('\n')[0]}`);
  return ready?.status === 'True';
}
