import { ConfigError } from '../errors';
import { parseDuration } from '../kstatus/parseDuration';
import type { KubeClient } from '../kube/kubeClient';
import { trackPath } from '../track/loadTrack';
import { reconcileHint } from '../track/trackCommandLine';
import type { TrackObject } from '../track/trackObject';
import type { TrackRef } from '../track/trackRef';
import { trackLabel } from '../track/trackRef';
import type { trackManifest } from './trackManifest';
import { readyOf, reconciledAt, waitForTrack } from './waitForReconcile';

/** The flags of `create` that concern the cluster (its own interface: createCommand loads this file). */
export interface ApplyTrackOptions {
  timeout: string;
  wait: boolean;
  overwrite?: boolean;
  suspend?: boolean;
}

/** The field manager of what the CLI applies with the user's identity. */
export const cliFieldManager = 'lightkeeper-cli';

/**
 * `create` against the cluster: server-side apply as the user (refused when it would change an
 * existing track, unless --overwrite), then the wait for the first reconcile of what it applied.
 */
export async function applyTrack(
  client: KubeClient,
  ref: TrackRef,
  manifest: ReturnType<typeof trackManifest>,
  opts: ApplyTrackOptions,
): Promise<void> {
  const timeoutMs = parseDuration(opts.timeout, '--timeout');
  const label = trackLabel(ref);
  const existing = await client.find<TrackObject>(trackPath(ref));
  const changed = existing && changedFields(existing.spec, manifest.spec);
  if (changed?.length && !opts.overwrite)
    throw new ConfigError(`${label} exists and this would change its ${changed.join(', ')}`, {
      subject: label,
      hint: 'pass --overwrite to change it (its next reconcile applies the new source and prunes what left it), or choose another name',
    });
  const { status, body } = await client.exchange<TrackObject>('PATCH', trackPath(ref), {
    body: manifest,
    contentType: 'application/apply-patch+yaml',
    query: { fieldManager: cliFieldManager, force: true },
    subject: label,
  });
  const say = (line: string) => process.stderr.write(`[lightkeeper] ${line}\n`);
  console.log(`${status === 201 ? 'created' : changed?.length ? 'configured' : 'unchanged'} ${label}`);
  // A suspended track is not reconciled until resumed: nothing to wait for.
  if (!opts.wait || opts.suspend) return;
  const generation = body.metadata.generation ?? 1;
  say(
    `waiting for its first reconcile (up to ${opts.timeout}): the every-minute check of new and changed tracks runs it`,
  );
  const track = await waitForTrack(client, ref, (t) => reconciledAt(t, generation), {
    timeoutMs,
    onProgress: say,
    reconcileNow: reconcileHint(ref),
  });
  const ready = readyOf(track);
  const message = (ready?.message ?? '').split('\n')[0];
  console.log(`Ready ${ready?.status} ${ready?.reason}: ${message}`);
  if (ready?.status !== 'True') process.exitCode = 1;
}

/** The spec fields `create` sets, with the value the CRD defaults each to when it is left out. */
const createdFields: Record<string, unknown> = {
  repository: undefined,
  reference: undefined,
  subPath: undefined,
  auth: undefined,
  serviceAccountName: undefined,
  defaultNamespace: undefined,
  healthTimeout: undefined,
  deletionPolicy: undefined,
  prune: true,
  suspend: false,
};

/** The spec fields the apply would change on an existing track. */
function changedFields(live: Record<string, unknown>, wanted: Record<string, unknown>): string[] {
  const value = (spec: Record<string, unknown>, k: string) => JSON.stringify(spec[k] ?? createdFields[k]);
  return Object.keys(createdFields)
    .filter((k) => value(live, k) !== value(wanted, k))
    .map((k) => `spec.${k}`);
}
