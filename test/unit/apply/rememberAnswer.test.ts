import { describe, expect, it, vi } from 'vitest';
import { inSync, rememberAnswer } from '../../../lib/apply/inSync';
import type { LiveObject } from '../../../lib/apply/liveChildren';
import { ownsManifestFields } from '../../../lib/apply/ownsManifestFields';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { trackerBody } from '../../../lib/tracker/trackerBody';
import { plannedConfigMap, track } from './applyFixtures';

// Counts the walks of a child's managed fields; each still answers as the real one does.
vi.mock('../../../lib/apply/ownsManifestFields', async (actual) => {
  const real = await actual<typeof import('../../../lib/apply/ownsManifestFields')>();
  return { ...real, ownsManifestFields: vi.fn(real.ownsManifestFields) };
});

const trackerUid = 'tracker-uid';
const child = (uid: string, resourceVersion: string, full = false): LiveObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    ...(full ? { data: { a: '1' } } : {}),
    metadata: {
      name: 'c',
      namespace: 'team-a',
      uid,
      resourceVersion,
      ownerReferences: [{ uid: trackerUid, controller: true }],
      managedFields: [{ manager: 'lightkeeper', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } }],
    },
  }) as unknown as LiveObject;

describe('rememberAnswer', () => {
  const p = plannedConfigMap();
  const body = trackerBody(p, track, 'c0ffee', undefined);
  // As the create recorded the apply: no field digest, so the drift check walks managed fields.
  const tracker = {
    ...body,
    kind: 'GitTrackObject',
    metadata: { ...body.metadata, uid: trackerUid },
    status: { lastAppliedDigest: p.digest },
  } as LiveTracker;
  const walks = vi.mocked(ownsManifestFields);

  it("spares the next drift check the walk of a child still at the answer's resourceVersion", () => {
    walks.mockClear();
    rememberAnswer(child('answered', '41', true), p);
    expect(walks).toHaveBeenCalledTimes(1);
    // The LIST of the next run shows the child at the same version: answered from memory.
    expect(inSync(p, tracker, child('answered', '41'), track, false)).toBe(true);
    expect(walks).toHaveBeenCalledTimes(1);
  });

  it('walks a child written since the answer', () => {
    walks.mockClear();
    rememberAnswer(child('rewritten', '50', true), p);
    expect(inSync(p, tracker, child('rewritten', '51'), track, false)).toBe(true);
    expect(walks).toHaveBeenCalledTimes(2);
  });
});
