import { describe, expect, it } from 'vitest';
import { appliedFieldsDigest } from '../../../lib/apply/fieldsDigest';
import { drifted, fieldsKeptMemoSize, inSync } from '../../../lib/apply/inSync';
import type { LiveObject } from '../../../lib/apply/liveChildren';
import { pruneAnnotation } from '../../../lib/manifests/metadataKeys';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { trackerBody } from '../../../lib/tracker/trackerBody';
import { plannedConfigMap, track } from './applyFixtures';

const commit = 'c0ffee';
const trackerUid = 'tracker-uid';

/** The tracking object as our last apply of `p` left it. */
const trackerOf = (p: PlannedObject, status: LiveTracker['status']): LiveTracker => {
  const body = trackerBody(p, track, commit, undefined);
  return { ...body, kind: 'GitTrackObject', metadata: { ...body.metadata, uid: trackerUid }, status };
};
const ourFields = { 'f:data': { 'f:a': {} } };
/** The child as the metadata-only LIST shows it: our fields and owner references. */
const childOf = (
  fields: object,
  ownerReferences = [{ uid: trackerUid, controller: true }],
  resourceVersion?: string,
): LiveObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'c',
      namespace: 'team-a',
      uid: 'child-uid',
      ...(resourceVersion ? { resourceVersion } : {}),
      ownerReferences,
      managedFields: [{ manager: 'lightkeeper', operation: 'Apply', fieldsV1: fields }],
    },
  }) as unknown as LiveObject;

describe('inSync', () => {
  const p = plannedConfigMap();
  const child = childOf(ourFields);
  const applied = { lastAppliedDigest: p.digest, lastAppliedFieldsDigest: appliedFieldsDigest(child, p) };

  it('is true when git and the cluster are as the last apply left them', () => {
    expect(inSync(p, trackerOf(p, applied), child, track, false)).toBe(true);
    expect(drifted(p, trackerOf(p, applied), child)).toBe(false);
  });

  it('is false without a tracking object or child, or after a change in git', () => {
    expect(inSync(p, undefined, child, track, false)).toBe(false);
    expect(inSync(p, trackerOf(p, applied), undefined, track, false)).toBe(false);
    const changed = { ...p, digest: 'sha256:other' };
    expect(inSync(changed, trackerOf(p, applied), child, track, false)).toBe(false);
    expect(drifted(changed, trackerOf(p, applied), child)).toBe(false);
  });

  it('finds drift: our fields changed, or the child gone', () => {
    const touched = childOf({ 'f:data': { 'f:b': {} } });
    expect(inSync(p, trackerOf(p, applied), touched, track, false)).toBe(false);
    expect(drifted(p, trackerOf(p, applied), touched)).toBe(true);
    expect(drifted(p, trackerOf(p, applied), undefined)).toBe(true);
  });

  it('compares the manifest with our managed fields when the create recorded the apply', () => {
    const recorded = { lastAppliedDigest: p.digest };
    expect(inSync(p, trackerOf(p, recorded), child, track, false)).toBe(true);
    // Someone else took `data.a` over: it left our entry.
    const takenOver = childOf({ 'f:metadata': { 'f:labels': {} } });
    expect(inSync(p, trackerOf(p, recorded), takenOver, track, false)).toBe(false);
  });

  it('walks a child once per resourceVersion and digest, and again once either moved', () => {
    const recorded = { lastAppliedDigest: p.digest };
    expect(inSync(p, trackerOf(p, recorded), childOf(ourFields, undefined, '7'), track, false)).toBe(true);
    // The same version again is the same answer; the next version (our field taken over) is walked.
    expect(inSync(p, trackerOf(p, recorded), childOf(ourFields, undefined, '7'), track, false)).toBe(true);
    const takenOver = childOf({ 'f:metadata': { 'f:labels': {} } }, undefined, '8');
    expect(inSync(p, trackerOf(p, recorded), takenOver, track, false)).toBe(false);
    expect(drifted(p, trackerOf(p, recorded), takenOver)).toBe(true);
    // A manifest with a field the child at version 7 does not hold is walked too (its digest moved).
    const wider = plannedConfigMap('  labels:\n    tier: web\n');
    const widerTracker = trackerOf(wider, { lastAppliedDigest: wider.digest });
    expect(inSync(wider, widerTracker, childOf(ourFields, undefined, '7'), track, false)).toBe(false);
  });

  it('judges a child at one resourceVersion again against another recorded field digest', () => {
    const at9 = childOf(ourFields, undefined, '9');
    const ours = { lastAppliedDigest: p.digest, lastAppliedFieldsDigest: appliedFieldsDigest(at9, p) };
    expect(inSync(p, trackerOf(p, ours), at9, track, false)).toBe(true);
    // The tracking object now records another apply's fields: the memo of version 9 does not answer.
    const other = { ...ours, lastAppliedFieldsDigest: `sha256:${'b'.repeat(64)}` };
    expect(inSync(p, trackerOf(p, other), at9, track, false)).toBe(false);
    expect(drifted(p, trackerOf(p, other), at9)).toBe(true);
    expect(inSync(p, trackerOf(p, ours), at9, track, false)).toBe(true);
  });

  it('never keeps a recorded field digest of another form, however long', () => {
    const at10 = childOf(ourFields, undefined, '10');
    const hostile = {
      lastAppliedDigest: p.digest,
      lastAppliedFieldsDigest: `sha256:${'a'.repeat(1_000_000)}`,
    };
    const held = fieldsKeptMemoSize();
    expect(inSync(p, trackerOf(p, hostile), at10, track, false)).toBe(false);
    expect(drifted(p, trackerOf(p, hostile), at10)).toBe(true);
    // Not memoized: a megabyte of a tracking object's status is not kept for the process's life.
    expect(fieldsKeptMemoSize()).toBe(held);
    const ours = { lastAppliedDigest: p.digest, lastAppliedFieldsDigest: appliedFieldsDigest(at10, p) };
    expect(inSync(p, trackerOf(p, ours), at10, track, false)).toBe(true);
    expect(fieldsKeptMemoSize()).toBe(held + 1);
  });

  it('re-applies once when protection changes, which is no drift', () => {
    const unowned = childOf(ourFields, []);
    expect(inSync(p, trackerOf(p, applied), unowned, track, false)).toBe(false);
    expect(drifted(p, trackerOf(p, applied), unowned)).toBe(false);
    const kept = plannedConfigMap(`  annotations:\n    ${pruneAnnotation}: disabled\n`);
    const keptApplied = { ...applied, lastAppliedDigest: kept.digest };
    expect(inSync(kept, trackerOf(kept, keptApplied), unowned, track, true)).toBe(true);
    expect(inSync(kept, trackerOf(kept, keptApplied), child, track, true)).toBe(false);
  });

  it('keeps a Never child as it is, its owner reference either way', () => {
    const never = { ...p, updateStrategy: 'Never' as const };
    const status = { lastAppliedDigest: p.digest };
    const tracker = {
      ...trackerOf(p, status),
      spec: { ...trackerOf(p, status).spec, updateStrategy: 'Never' },
    };
    expect(inSync(never, tracker, childOf({}, []), track, false)).toBe(true);
    expect(inSync(never, tracker, childOf({}), track, false)).toBe(true);
  });
});
