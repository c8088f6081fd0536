import { describe, expect, it } from 'vitest';
import { readIgnoreRules, targets } from '../../../lib/ignore/ignoreRules';
import { refOf } from '../../../lib/manifests';
import type { TrackObject } from '../../../lib/track/trackObject';

const gitTrack = (ignore: unknown): TrackObject => ({
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'GitTrack',
  metadata: { name: 'shop', namespace: 'team-a', uid: 'u' },
  spec: { repository: 'https://git.example/r.git', reference: 'main', ignore } as TrackObject['spec'],
});

const refusal = (track: TrackObject) => {
  try {
    readIgnoreRules(track);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('spec.ignore', () => {
  it('parses rules and matches only what a target names', () => {
    const [rule] = readIgnoreRules(
      gitTrack([
        { target: { group: 'apps', kind: 'Deployment', name: 'web' }, jsonPointers: ['/spec/replicas'] },
      ]),
    );
    expect(rule?.pointers).toEqual([['spec', 'replicas']]);
    const ref = (apiVersion: string, kind: string, name: string, namespace = 'team-a') =>
      refOf({ apiVersion, kind, metadata: { name, namespace } });
    const target = rule?.target ?? {};
    expect(targets(target, ref('apps/v1', 'Deployment', 'web'))).toBe(true);
    expect(targets(target, ref('apps/v1', 'Deployment', 'api'))).toBe(false);
    expect(targets(target, ref('apps/v1', 'StatefulSet', 'web'))).toBe(false);
    expect(targets(target, ref('example.com/v1', 'Deployment', 'web'))).toBe(false);
    expect(targets({ group: '' }, ref('v1', 'ConfigMap', 'web'))).toBe(true);
    expect(targets({ namespace: 'other' }, ref('v1', 'ConfigMap', 'web'))).toBe(false);
  });

  it('refuses a bad rule with an error naming the track and the rule', () => {
    expect(refusal(gitTrack([{ jsonPointers: ['/spec/replicas', 'spec/x'] }]))).toBe(
      'GitTrack/team-a/shop: spec.ignore[0].jsonPointers[1]: "spec/x" does not start with /',
    );
    expect(refusal(gitTrack([{ jsonPointers: ['/spec/a'] }, { jsonPointers: [] }]))).toMatch(
      /^GitTrack\/team-a\/shop: spec.ignore\[1\].jsonPointers: must be a non-empty list/,
    );
    expect(refusal(gitTrack([{ jsonPointers: ['/metadata/name'] }]))).toMatch(/names the object itself/);
    expect(refusal(gitTrack([{ target: { labels: 'x' }, jsonPointers: ['/a'] }]))).toMatch(
      /spec.ignore\[0\].target.labels: unknown field/,
    );
  });

  it("refuses a GitTrack's rule that reaches outside its namespace", () => {
    expect(refusal(gitTrack([{ target: { namespace: 'team-b' }, jsonPointers: ['/spec/replicas'] }]))).toBe(
      "GitTrack/team-a/shop: spec.ignore[0].target.namespace: team-b is outside this GitTrack's namespace team-a",
    );
  });
});
