import { describe, expect, it } from 'vitest';
import type { Change } from '../../../lib/apply/change';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import { conclude } from '../../../lib/reconcile/conclude';
import type { RunOutcomes } from '../../../lib/reconcile/outcomes';
import type { TrackCondition, TrackObject } from '../../../lib/track/trackObject';
import type { TrackerStatusModes } from '../../../lib/tracker/patchTrackerStatus';

// conclude() of a commit the API server's dry-run refused (lib/apply/validateChanges.ts).

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const now = new Date('2026-12-02T12:00:00Z');
const track: TrackObject = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrack',
  metadata: { name: 'web', namespace: 'shop', uid: 'u1', generation: 2 },
  spec: { repository: 'https://git.example/shop.git', reference: 'main' },
  status: { observedGeneration: 2, lastAppliedCommit: A },
};
const statusModes = { GitTrackObject: 'object', ClusterGitTrackObject: 'object' } as TrackerStatusModes;
const refusal = 'deploy.yaml:1: Deployment.apps/shop/web: spec.selector: Required value';

function refused(changes: Change[], planned: number, written: number): RunOutcomes {
  return {
    request: { track: { kind: 'GitTrack', namespace: 'shop', name: 'web' }, reason: 'push' },
    choice: { reference: 'main', followsPin: false },
    source: { state: 'read', commit: B, files: planned, manifests: [], errors: [] },
    plan: { planned: Array.from({ length: planned }, () => ({}) as PlannedObject), failed: [], ignored: [] },
    apply: { changes, notTaken: 0, statusModes, trackerConditions: undefined, refused: { written } },
    prune: { state: 'skipped', errors: 1 },
    writes: { objects: written, health: 0, status: 0 },
  };
}
const conditionOf = (c: ReturnType<typeof conclude>, type: string) =>
  ((c.status?.status.conditions ?? []) as TrackCondition[]).find((x) => x.type === type);

describe('conclude: a commit the dry-run refused', () => {
  it('fails with ValidationFailed, naming the refusal, nothing written, nothing pruned', () => {
    const changes: Change[] = [
      { subject: 'Deployment.apps/shop/web', action: 'failed', message: refusal },
      { subject: 'ConfigMap/shop/old', action: 'unchanged' },
    ];
    const c = conclude(refused(changes, 3, 0), track, now);
    expect(c.summary).toMatchObject({ result: 'Failed', errors: [refusal] });
    expect(conditionOf(c, 'Applied')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
      message: `applied 1 of 3 objects at ${B}; 1 refused before anything was written:\n${refusal}`,
    });
    expect(conditionOf(c, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ValidationFailed',
      message: refusal,
    });
    expect(conditionOf(c, 'Pruned')).toMatchObject({ reason: 'PruneSkipped' });
    expect(c.status?.status.lastAppliedCommit).toBe(A);
  });

  it('says which definitions were written when the refusal came after them', () => {
    const changes: Change[] = [
      { subject: 'Namespace/fresh', action: 'created' },
      { subject: 'Deployment.apps/fresh/web', action: 'failed', message: refusal },
    ];
    const c = conclude(refused(changes, 2, 1), track, now);
    expect(conditionOf(c, 'Applied')?.message).toBe(
      `applied 1 of 2 objects at ${B}; 1 refused once the 1 namespaces and CRDs they need were written, nothing else written:\n${refusal}`,
    );
  });
});
