import { setTimeout as sleep } from 'node:timers/promises';
import { WaitTimeoutError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { loadTrack } from '../track/loadTrack';
import type { TrackCondition, TrackObject } from '../track/trackObject';
import type { TrackRef } from '../track/trackRef';
import { trackLabel } from '../track/trackRef';

export interface WaitOptions {
  timeoutMs: number;
  /** How often the track is read (default 1 s). */
  pollMs?: number;
  /** A line about the wait, at most every `progressEveryMs` (default 10 s). */
  onProgress?: (line: string) => void;
  progressEveryMs?: number;
  /** What the hint of a timeout tells the user to run. */
  reconcileNow: string;
}

export const readyOf = (track: TrackObject): TrackCondition | undefined =>
  track.status?.conditions?.find((c) => c.type === 'Ready');

/**
 * Whether a reconcile has concluded on the track's current spec: it observed this generation and
 * wrote a Ready verdict that is not a run still in progress (a run that continues).
 */
export function reconciledAt(track: TrackObject, generation: number): boolean {
  const ready = readyOf(track);
  return (
    (track.status?.observedGeneration ?? -1) >= generation &&
    ready !== undefined &&
    ready.status !== 'Unknown' &&
    ready.reason !== 'Progressing'
  );
}

/**
 * Reads the track until `done` says a reconcile concluded, and returns it; a timeout is a
 * WaitTimeoutError that says nothing reconciled it and what runs it now.
 */
export async function waitForTrack(
  client: KubeClient,
  ref: TrackRef,
  done: (track: TrackObject) => boolean,
  options: WaitOptions,
): Promise<TrackObject> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let lastProgress = started;
  for (;;) {
    const track = await loadTrack(client, ref);
    if (done(track)) return track;
    const now = Date.now();
    if (now >= deadline) {
      const ready = readyOf(track);
      throw new WaitTimeoutError(
        `${trackLabel(ref)}: no reconcile concluded within ${Math.round(options.timeoutMs / 1000)} s${
          ready ? ` (Ready ${ready.status}, ${ready.reason})` : ' (never reconciled)'
        }`,
        {
          subject: trackLabel(ref),
          hint: `the every-minute check of a deployment (or of a running \`npm start\`) reconciles it; is one running? \`${options.reconcileNow}\` does it now`,
        },
      );
    }
    if (now - lastProgress >= (options.progressEveryMs ?? 10_000)) {
      lastProgress = now;
      const ready = readyOf(track);
      options.onProgress?.(
        `waiting for a reconcile of ${trackLabel(ref)} (${Math.round((now - started) / 1000)} s)${
          ready ? `: Ready ${ready.status}, ${ready.reason}` : ''
        }`,
      );
    }
    await sleep(Math.min(options.pollMs ?? 1000, Math.max(0, deadline - now)));
  }
}
