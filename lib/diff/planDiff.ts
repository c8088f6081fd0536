import { childBody } from '../apply/childBody';
import { ignoringApply } from '../apply/ignoringApply';
import { unservedMessage } from '../apply/prune';
import { isDecryptedManifest, redactedError } from '../apply/redactDecrypted';
import { isLightkeeperError } from '../errors';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { readIgnoreRules } from '../ignore/ignoreRules';
import { withoutPointers } from '../ignore/jsonPointer';
import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { serverSideApply } from '../kube/serverSideApply';
import { canonicalJson, type JsonObject, type Manifest } from '../manifests';
import { childOwnerReferences, isProtectedChild } from '../ownership/childOwnership';
import type { TrackOwner } from '../ownership/ownershipTable';
import { trackOwner } from '../ownership/trackOwner';
import { planManifests } from '../plan/planManifests';
import type { PlannedObject } from '../plan/plannedObject';
import { staleTrackers } from '../reconcile/staleTrackers';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import type { LiveTracker } from '../tracker/liveTracker';
import { listTrackers, trackerKey } from '../tracker/liveTracker';
import { comparable } from './comparable';
import type { DiffPlan } from './diffPlan';
import { renderObjectDiff } from './renderObjectDiff';

/** A tracking object that does not exist yet has no UID: its children are dry-run applied with this one. */
export const placeholderTrackerUid = '00000000-0000-0000-0000-000000000000';

interface Controlled {
  metadata: {
    uid?: string;
    ownerReferences?: Array<{ uid: string; controller?: boolean; kind?: string; name?: string }>;
  };
}

/**
 * What reconciling `manifests` would do to `track`, found with reads and server-side dry-run
 * applies only: each child is dry-run applied as the track's identity with the body the engine
 * sends, and the result compared with the live object. A read the identity may not make throws
 * (no diff is better than a wrong one).
 */
export async function planDiff(
  client: KubeClient,
  config: DeploymentConfig,
  track: TrackObject,
  manifests: readonly Manifest[],
  source: string,
  parseErrors: readonly string[],
): Promise<DiffPlan> {
  const owner = trackOwner(track);
  const discovery = await new Discovery(client).refresh();
  // A dry run writes no tracking object: its digests need no key.
  const split = planManifests(manifests, {
    track: owner,
    config,
    discovery,
    ignoreRules: readIgnoreRules(track),
    digestKey: undefined,
  });
  const plan: DiffPlan = {
    track: trackLabel({ kind: track.kind, name: track.metadata.name, namespace: track.metadata.namespace }),
    source,
    changed: [],
    created: [],
    pruned: [],
    unchanged: 0,
    ignored: split.ignored,
    conflicts: [],
    errors: [...parseErrors, ...split.failed.map((f) => f.message)],
  };
  const childClient = clientAs(client, trackIdentity(track, config));
  const trackers = await listTrackers(client, owner);
  for (const p of split.planned) await diffChild(plan, client, childClient, owner, trackers, p);

  const stale = staleTrackers(trackers, split.planned, manifests, owner.uid);
  const refused =
    track.spec.prune === false
      ? 'spec.prune is false'
      : plan.errors.length > 0
        ? `this commit has ${plan.errors.length} errors`
        : stale.length > 0 && split.planned.length === 0 && !track.spec.allowEmpty
          ? 'the commit has no manifests for this track (set spec.allowEmpty to allow)'
          : undefined;
  for (const t of stale) {
    const ns = t.kind === 'GitTrackObject' ? t.metadata.namespace : undefined;
    const subject = [t.spec.target.kind, ns, t.spec.target.name].filter(Boolean).join('/');
    // As prune does: a type not served now proves nothing gone, so nothing is pruned.
    const unserved = discovery.resourceInAnyVersion(t.spec.target.apiVersion, t.spec.target.kind)
      ? undefined
      : unservedMessage(t.spec.target);
    const why = refused ?? unserved;
    plan.pruned.push(why ? { subject, refused: why } : { subject });
  }
  return plan;
}

async function diffChild(
  plan: DiffPlan,
  client: KubeClient,
  childClient: KubeClient,
  owner: TrackOwner,
  trackers: ReadonlyMap<string, LiveTracker>,
  p: PlannedObject,
): Promise<void> {
  const { decision } = p;
  const trackerPath = resourcePath({
    ...lightkeeperResources[decision.tracker],
    namespace: lightkeeperResources[decision.tracker].namespaced ? decision.namespace : undefined,
    name: decision.trackerName,
  });
  const tracker =
    trackers.get(trackerKey(decision.tracker, decision.namespace, decision.trackerName)) ??
    (await client.find<Controlled & { metadata: { uid: string } }>(trackerPath));
  const trackerController = tracker?.metadata.ownerReferences?.find((o) => o.controller);
  if (trackerController && trackerController.uid !== owner.uid) {
    const by = `${trackerController.kind ?? 'another track'} ${trackerController.name ?? trackerController.uid}`;
    plan.conflicts.push({ subject: p.subject, message: `${p.subject} is already tracked by ${by}` });
    return;
  }
  const trackerUid = tracker?.metadata.uid ?? placeholderTrackerUid;
  const target = { ...p.resource, namespace: decision.namespace, name: p.manifest.ref.name };
  // Read as the track's identity: a type it may not read is an error, never "would be created".
  const live = await childClient.find<JsonObject & Controlled>(resourcePath(target));
  const liveController = live?.metadata.ownerReferences?.find((o) => o.controller);
  if (liveController && liveController.uid !== trackerUid) {
    const by = `${liveController.kind ?? 'another object'} ${liveController.name ?? liveController.uid}`;
    plan.conflicts.push({
      subject: p.subject,
      message: `${p.subject} is controlled by ${by}; not taking it over`,
    });
    return;
  }
  if (live && p.updateStrategy === 'Never') {
    plan.unchanged++;
    return;
  }
  const protectedChild = isProtectedChild(owner, p.manifest.object);
  const references = childOwnerReferences(decision, trackerUid, p.subject, protectedChild);
  // The body the engine would send, ignored fields left out (or kept at their live value).
  const dryRun = ignoringApply(childClient, resourcePath(target), p, live, (q) =>
    serverSideApply<JsonObject>(childClient, target, childBody(q, owner, references), {
      subject: p.subject,
      dryRun: true,
    }),
  );
  let result: JsonObject;
  try {
    ({ object: result } = await dryRun());
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    plan.errors.push(
      isDecryptedManifest(p.manifest) ? redactedError(p.subject, e.message) : `${p.subject}: ${e.message}`,
    );
    return;
  }
  if (!live) {
    plan.created.push(p.subject);
    return;
  }
  // Ignored fields are someone else's: a difference there is not for the diff to show.
  const before = withoutPointers(comparable(live), p.ignore ?? []);
  const after = withoutPointers(comparable(result), p.ignore ?? []);
  if (canonicalJson(before) === canonicalJson(after)) plan.unchanged++;
  else plan.changed.push({ subject: p.subject, diff: renderObjectDiff(p.subject, before, after) });
}
