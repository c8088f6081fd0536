import { describe, expect, it } from 'vitest';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { WrittenConditions } from '../../../lib/tracker/writtenConditions';

const planned = (name: string) =>
  ({
    decision: { tracker: 'GitTrackObject', namespace: 'ns', trackerName: name },
  }) as unknown as PlannedObject;
const tracker = (conditions: Array<{ type: string; status: string }>) =>
  ({ status: { lastAppliedDigest: 'd', conditions } }) as unknown as LiveTracker;
const inSync = (status: string) => ({ type: 'InSync', status });

describe('WrittenConditions', () => {
  it('overlays what the apply wrote on what was read before it, keeping the rest of the status', () => {
    const written = new WrittenConditions();
    written.wrote(planned('b'), [inSync('False')]);
    written.wrote(planned('new'), [inSync('True')]);
    const before = new Map([
      ['GitTrackObject/ns/a', tracker([inSync('True')])],
      ['GitTrackObject/ns/b', tracker([inSync('True'), { type: 'Healthy', status: 'True' }])],
    ]);
    const after = written.after(before);
    expect(after?.get('GitTrackObject/ns/a')?.status?.conditions).toEqual([inSync('True')]);
    expect(after?.get('GitTrackObject/ns/b')?.status).toEqual({
      lastAppliedDigest: 'd',
      conditions: [inSync('False')],
    });
    expect(after?.get('GitTrackObject/ns/new')?.status?.conditions).toEqual([inSync('True')]);
  });

  it('knows nothing once a write failed: the health step lists the tracking objects again', () => {
    const written = new WrittenConditions();
    written.wrote(planned('a'), [inSync('True')]);
    written.failed();
    expect(written.after(new Map())).toBeUndefined();
  });
});
