import { ConfigError, isKubeApiError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { whoAmI } from '../kube/whoAmI';
import { loadTrack, trackPath } from '../track/loadTrack';
import type { TrackPin } from '../track/trackObject';
import { type TrackRef, trackLabel } from '../track/trackRef';

/**
 * Pins a track to `commit` (spec.pin), as the caller: a pin is a change to the track, so it takes
 * the right to patch the track, the right that could also set spec.reference to that SHA.
 */
export async function pinTrack(client: KubeClient, ref: TrackRef, commit: string): Promise<TrackPin> {
  await loadTrack(client, ref);
  const by = (await whoAmI(client)) ?? process.env.USER;
  const pin: TrackPin = { commit, ...(by ? { by } : {}), at: new Date().toISOString() };
  await patchPin(client, ref, pin);
  return pin;
}

/** Removes the pin; returns the pin that was removed, or undefined when the track was not pinned. */
export async function unpinTrack(client: KubeClient, ref: TrackRef): Promise<TrackPin | undefined> {
  const track = await loadTrack(client, ref);
  const pin = track.spec.pin;
  if (pin) await patchPin(client, ref, null);
  return pin;
}

async function patchPin(client: KubeClient, ref: TrackRef, pin: TrackPin | null): Promise<void> {
  const label = trackLabel(ref);
  try {
    await client.request('PATCH', trackPath(ref), {
      body: { spec: { pin } },
      contentType: 'application/merge-patch+json',
      subject: label,
    });
  } catch (e) {
    if (!isKubeApiError(e) || e.status !== 403) throw e;
    throw new ConfigError(
      `${pin ? 'pinning' : 'unpinning'} ${label} needs the right to patch it: ${e.message}`,
      {
        subject: label,
        cause: e,
        hint: pin
          ? 'ask for edit on the track, or apply the commit once with --once (undone by the next sweep or push)'
          : 'ask for edit on the track',
      },
    );
  }
}
