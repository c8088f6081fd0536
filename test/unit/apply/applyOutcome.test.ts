import { describe, expect, it } from 'vitest';
import { describeApplyError } from '../../../lib/apply/describeApplyError';
import { isOwnershipConflict, refuseOtherTrack } from '../../../lib/apply/ownershipConflict';
import { recordAtCreate } from '../../../lib/apply/recordApply';
import { KubeApiError, OwnershipError } from '../../../lib/errors';
import { updateStrategyAnnotation } from '../../../lib/manifests/metadataKeys';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { plannedConfigMap, track } from './applyFixtures';

const p = plannedConfigMap();
const otherController = new KubeApiError(
  422,
  'Invalid',
  'ConfigMap "c" is invalid: metadata.ownerReferences: Only one reference can have Controller set to true',
);
const immutable = new KubeApiError(422, 'Invalid', 'ConfigMap "c" is invalid: data: field is immutable');

describe('describeApplyError', () => {
  it('names file, line and object, and says what to do when there is something to do', () => {
    expect(describeApplyError(otherController, p)).toBe(
      'c.yaml:1: ConfigMap/team-a/c: child is owned by another controller; not taking it over',
    );
    expect(describeApplyError(immutable, p)).toBe(
      `c.yaml:1: ConfigMap/team-a/c: ${immutable.message} (annotate it ${updateStrategyAnnotation}: Recreate to replace it)`,
    );
    expect(describeApplyError(new KubeApiError(404, 'NotFound', 'namespaces "team-a" not found'), p)).toBe(
      'c.yaml:1: ConfigMap/team-a/c: namespaces "team-a" not found',
    );
    expect(describeApplyError(new OwnershipError('ConfigMap/team-a/c is already tracked'), p)).toBe(
      'c.yaml:1: ConfigMap/team-a/c is already tracked',
    );
    expect(describeApplyError(new TypeError('boom'), p)).toBe(
      'c.yaml:1: ConfigMap/team-a/c: TypeError: boom',
    );
  });
});

describe('ownership conflicts', () => {
  const tracker = (controller?: { uid: string; kind: string; name: string }) =>
    ({
      metadata: { ownerReferences: controller ? [{ ...controller, controller: true }] : [] },
    }) as unknown as LiveTracker;

  it('are an OwnershipError or another controller holding the child', () => {
    expect(isOwnershipConflict(new OwnershipError('x'))).toBe(true);
    expect(isOwnershipConflict(otherController)).toBe(true);
    expect(isOwnershipConflict(immutable)).toBe(false);
  });

  it("refuse another track's tracking object, and an uncontrolled one unless it was ours", () => {
    const own = tracker({ uid: track.uid, kind: 'GitTrack', name: 'shop' });
    const other = tracker({ uid: 'other', kind: 'GitTrack', name: 'web' });
    expect(() => refuseOtherTrack(track, p, own, { allowUncontrolled: false })).not.toThrow();
    expect(() => refuseOtherTrack(track, p, tracker(), { allowUncontrolled: true })).not.toThrow();
    expect(() => refuseOtherTrack(track, p, other, { allowUncontrolled: true })).toThrow(
      'ConfigMap/team-a/c is already tracked by GitTrack web; not taking it over',
    );
    expect(() => refuseOtherTrack(track, p, tracker(), { allowUncontrolled: false })).toThrow(
      `ConfigMap/team-a/c is already tracked by GitTrackObject ${p.decision.trackerName}; not taking it over`,
    );
  });
});

describe('recordAtCreate', () => {
  const modes = { GitTrackObject: 'object', ClusterGitTrackObject: 'object' } as const;

  it('records the apply to come, with the health the manifest earns, where the create carries status', () => {
    const record = recordAtCreate({ statusModes: modes, commit: 'c0ffee' }, p);
    expect(record?.status).toMatchObject({ lastAppliedDigest: p.digest, lastAppliedCommit: 'c0ffee' });
    expect(record?.status.conditions.map((c) => [c.type, c.status])).toEqual([
      ['InSync', 'True'],
      ['Healthy', 'True'],
    ]);
    expect(record?.healthy?.status).toBe('True');
  });

  it('records nothing through a status subresource, nor for a Never child that may exist', () => {
    const subresource = { ...modes, GitTrackObject: 'subresource' } as const;
    expect(recordAtCreate({ statusModes: subresource, commit: 'c' }, p)).toBeUndefined();
    const never = { ...p, updateStrategy: 'Never' as const };
    expect(recordAtCreate({ statusModes: modes, commit: 'c' }, never)).toBeUndefined();
  });
});
