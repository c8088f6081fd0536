import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound } from '../errors';
import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { trackOwner } from '../ownership/trackOwner';
import { loadTrack } from '../track/loadTrack';
import type { TrackKind } from '../track/trackRef';
import { type LiveTracker, listTrackers } from '../tracker/liveTracker';
import type { CreatedObject, StartLedger } from './startLedger';

const metadataOnly = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const trackKinds: readonly string[] = ['ClusterGitTrack', 'GitTrack'];

interface ChildMetadata {
  metadata: { uid: string; creationTimestamp?: string };
}

/**
 * Removes exactly what one `lightkeeper start` run created, newest first, each by UID. Its tracks
 * have deletion policy Delete, so the garbage collector removes the objects they applied — except a
 * child the run did not create (a user put one of theirs into the sample repository): its tracking
 * object is deleted first with orphan propagation, so the collector releases the child, and the
 * track is deleted only once that is done. Whatever could not be removed is named in the error.
 */
export async function removeCreated(
  client: KubeClient,
  ledger: StartLedger,
  options: { log: (line: string) => void; timeoutMs?: number },
): Promise<void> {
  const left: string[] = [];
  const discovery = await new Discovery(client).refresh();
  for (const object of [...ledger.created].reverse()) {
    try {
      if (trackKinds.includes(object.kind)) {
        const kept = await releaseForeignChildren(
          client,
          discovery,
          ledger,
          object,
          options.timeoutMs ?? 30_000,
        );
        for (const child of kept) options.log(`  kept ${child}: it is older than this run`);
      }
      if (object.kind === 'CustomResourceDefinition' && !(await unused(client, object, options.timeoutMs))) {
        left.push(`${object.label} (objects of it remain)`);
        continue;
      }
      await deleteByUid(client, object);
    } catch (e) {
      left.push(`${object.label} (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  if (left.length > 0) throw new Error(`left in the cluster: ${left.join('; ')}`);
}

async function deleteByUid(client: KubeClient, object: CreatedObject): Promise<void> {
  try {
    await client.request('DELETE', object.path, {
      body: { preconditions: { uid: object.uid }, propagationPolicy: 'Background' },
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/**
 * Deletes, orphaning their children, the tracking objects of `track` whose child the run did not
 * create, and waits until they are gone; answers those children.
 */
async function releaseForeignChildren(
  client: KubeClient,
  discovery: Discovery,
  ledger: StartLedger,
  track: CreatedObject,
  timeoutMs: number,
): Promise<string[]> {
  const live = await client.find<{ metadata: { uid: string } }>(track.path);
  if (live?.metadata.uid !== track.uid) return [];
  const ref = { kind: track.kind as TrackKind, name: track.name, namespace: track.namespace };
  const trackers = await listTrackers(client, trackOwner(await loadTrack(client, ref)));
  const released: Array<{ tracker: LiveTracker; child: string }> = [];
  for (const tracker of trackers.values()) {
    const { apiVersion, kind: childKind, name } = tracker.spec.target;
    const resource = discovery.resourceFor(apiVersion, childKind);
    if (!resource) continue;
    const namespace = resource.namespaced ? tracker.metadata.namespace : undefined;
    const child = await client.find<ChildMetadata>(
      resourcePath({ apiVersion, plural: resource.plural, namespace, name }),
      { accept: metadataOnly },
    );
    if (!child || ledger.owns(child)) continue;
    await client.request('DELETE', trackerPath(tracker), {
      body: { preconditions: { uid: tracker.metadata.uid }, propagationPolicy: 'Orphan' },
    });
    released.push({ tracker, child: `${childKind}/${namespace ? `${namespace}/` : ''}${name}` });
  }
  const deadline = Date.now() + timeoutMs;
  for (const { tracker, child } of released) {
    while ((await client.find(trackerPath(tracker))) !== undefined) {
      if (Date.now() > deadline)
        throw new Error(`the garbage collector did not release ${child} in time; the track was kept`);
      await sleep(200);
    }
  }
  return released.map((r) => r.child);
}

const trackerPath = (t: LiveTracker) =>
  resourcePath({ ...lightkeeperResources[t.kind], namespace: t.metadata.namespace, name: t.metadata.name });

/**
 * Whether no object of a CRD the run installed remains, waiting a while for the collector to finish
 * the run's own tracks; a CRD with objects stays (deleting it would delete them).
 */
async function unused(client: KubeClient, crd: CreatedObject, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await hasObjects(client, crd)) {
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
  return true;
}

async function hasObjects(client: KubeClient, crd: CreatedObject): Promise<boolean> {
  const live = await client.find<{
    spec: { group: string; names: { plural: string }; versions: Array<{ name: string; served: boolean }> };
  }>(crd.path);
  if (!live) return false;
  const version = live.spec.versions.find((v) => v.served)?.name;
  if (!version) return false;
  const list = await client.get<{ items: unknown[] }>(
    `/apis/${live.spec.group}/${version}/${live.spec.names.plural}`,
    {
      query: { limit: '1' },
    },
  );
  return list.items.length > 0;
}
