import { describe, expect, it } from 'vitest';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { buildTrackTree } from '../../../lib/tree/buildTrackTree';
import { formatTrackTree } from '../../../lib/tree/formatTrackTree';

const track = {
  kind: 'GitTrack',
  namespace: 'ns',
  name: 't',
  uid: 'track',
  deletionPolicy: 'Delete' as const,
};
const tracker = (
  name: string,
  healthy: { status: string; reason: string; message: string },
): LiveTracker => ({
  kind: 'GitTrackObject',
  metadata: { name: `deployment-${name}`, namespace: 'ns', uid: `tr-${name}` },
  spec: {
    target: { apiVersion: 'apps/v1', kind: 'Deployment', name },
    source: { path: `${name}.yaml`, commit: 'c1' },
    digest: 'd',
  },
  status: {
    lastAppliedCommit: 'c1',
    conditions: [
      { type: 'InSync', status: 'True', reason: 'Applied' },
      { type: 'Healthy', ...healthy },
    ] as NonNullable<LiveTracker['status']>['conditions'],
  },
});
const controlled = (name: string) => ({
  metadata: { uid: name, ownerReferences: [{ uid: `tr-${name}`, controller: true }] },
});

describe('the tree with health', () => {
  it('shows each child health and the track Healthy condition', () => {
    const tree = buildTrackTree(
      track,
      {
        lastAppliedCommit: 'c1',
        conditions: [
          { type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' },
          {
            type: 'Healthy',
            status: 'False',
            reason: 'HealthCheckTimeout',
            message: 'healthy 1 of 2, failed 1\nDeployment.apps/ns/web: …',
          },
        ],
      },
      [
        {
          tracker: tracker('api', {
            status: 'True',
            reason: 'Current',
            message: 'Deployment is available. Replicas: 2',
          }),
          child: controlled('api'),
        },
        {
          tracker: tracker('web', {
            status: 'False',
            reason: 'HealthCheckTimeout',
            message: 'not healthy within 2m: Available: 0/1',
          }),
          child: controlled('web'),
        },
      ],
    );
    expect(tree.healthy).toMatchObject({ status: 'False', reason: 'HealthCheckTimeout' });
    expect(tree.nodes.map((n) => n.healthy?.status)).toEqual(['True', 'False']);
    const text = formatTrackTree(tree);
    expect(text.split('\n')[0]).toBe(
      'GitTrack/ns/t  Ready=True (ReconciliationSucceeded)  Healthy=False (healthy 1 of 2, failed 1)  c1  deletionPolicy=Delete',
    );
    expect(text).toContain('GitTrackObject/ns/deployment-api  InSync (Applied)  Healthy  c1');
    expect(text).toContain(
      'GitTrackObject/ns/deployment-web  InSync (Applied)  Unhealthy (HealthCheckTimeout)  c1',
    );
    expect(text).toContain('      not healthy within 2m: Available: 0/1');
  });
});
