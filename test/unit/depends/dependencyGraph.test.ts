import { describe, expect, it } from 'vitest';
import { type DependentTrack, dependencyRefs } from '../../../lib/depends/dependencyRefs';
import { findCycle, formatCycle } from '../../../lib/depends/findCycle';
import { type TrackRef, trackLabel } from '../../../lib/track/trackRef';

const gitTrack = (namespace: string, name: string, dependsOn: DependentTrack['spec']['dependsOn']) => ({
  kind: 'GitTrack' as const,
  metadata: { name, namespace },
  spec: { dependsOn },
});
const clusterTrack = (name: string, dependsOn: DependentTrack['spec']['dependsOn']) => ({
  kind: 'ClusterGitTrack' as const,
  metadata: { name },
  spec: { dependsOn },
});

describe('dependencyRefs', () => {
  it('a GitTrack depends on GitTracks of its namespace (namespace optional) and on ClusterGitTracks', () => {
    const out = dependencyRefs(
      gitTrack('team', 'app', [
        { kind: 'GitTrack', name: 'db' },
        { kind: 'GitTrack', name: 'db', namespace: 'team' },
        { kind: 'ClusterGitTrack', name: 'crds' },
      ]),
    );
    expect(out).toEqual({
      refs: [
        { kind: 'GitTrack', namespace: 'team', name: 'db' },
        { kind: 'ClusterGitTrack', name: 'crds' },
      ],
    });
    expect(dependencyRefs(gitTrack('team', 'app', undefined))).toEqual({ refs: [] });
  });

  it('refuses a GitTrack of another namespace, naming the entry and the rule', () => {
    const out = dependencyRefs(
      gitTrack('team', 'app', [
        { kind: 'ClusterGitTrack', name: 'crds' },
        { kind: 'GitTrack', name: 'db', namespace: 'other' },
      ]),
    );
    expect(out).toEqual({
      refusal:
        'spec.dependsOn[1]: GitTrack/team/app may depend only on GitTracks of its own namespace team and on ClusterGitTracks, not on GitTrack/other/db',
    });
  });

  it('a ClusterGitTrack depends only on ClusterGitTracks', () => {
    expect(dependencyRefs(clusterTrack('platform', [{ kind: 'ClusterGitTrack', name: 'crds' }]))).toEqual({
      refs: [{ kind: 'ClusterGitTrack', name: 'crds' }],
    });
    const out = dependencyRefs(
      clusterTrack('platform', [{ kind: 'GitTrack', name: 'db', namespace: 'team' }]),
    );
    expect(out).toEqual({
      refusal:
        'spec.dependsOn[0]: ClusterGitTrack/platform may depend only on ClusterGitTracks, not on GitTrack/team/db',
    });
  });

  it('refuses a namespaced ClusterGitTrack entry and an unknown kind', () => {
    expect(
      dependencyRefs(gitTrack('team', 'app', [{ kind: 'ClusterGitTrack', name: 'crds', namespace: 'team' }])),
    ).toEqual({ refusal: 'spec.dependsOn[0]: ClusterGitTrack/crds has no namespace (got team)' });
    expect(dependencyRefs(gitTrack('team', 'app', [{ kind: 'Kustomization', name: 'x' }]))).toEqual({
      refusal: 'spec.dependsOn[0]: kind Kustomization is neither GitTrack nor ClusterGitTrack',
    });
  });
});

const gt = (name: string): TrackRef => ({ kind: 'GitTrack', namespace: 'team', name });
const cgt = (name: string): TrackRef => ({ kind: 'ClusterGitTrack', name });
const graph = (edges: Array<[TrackRef, TrackRef[]]>) => {
  const byKey = new Map(edges.map(([from, to]) => [trackLabel(from), to]));
  return (ref: TrackRef) => byKey.get(trackLabel(ref));
};

describe('findCycle', () => {
  it('finds none in a chain or a diamond', () => {
    const edges = graph([
      [gt('app'), [gt('db'), cgt('crds')]],
      [gt('db'), [cgt('crds')]],
      [cgt('crds'), []],
    ]);
    expect(findCycle(gt('app'), edges)).toBeUndefined();
    expect(findCycle(gt('db'), edges)).toBeUndefined();
  });

  it('names a self-dependency and a two-track cycle from either end', () => {
    expect(formatCycle(findCycle(gt('a'), graph([[gt('a'), [gt('a')]]])) ?? [])).toBe(
      'GitTrack/team/a → GitTrack/team/a',
    );
    const edges = graph([
      [gt('a'), [gt('b')]],
      [gt('b'), [gt('a')]],
    ]);
    expect(formatCycle(findCycle(gt('a'), edges) ?? [])).toBe(
      'GitTrack/team/a → GitTrack/team/b → GitTrack/team/a',
    );
    expect(formatCycle(findCycle(gt('b'), edges) ?? [])).toBe(
      'GitTrack/team/b → GitTrack/team/a → GitTrack/team/b',
    );
  });

  it('reports the shortest cycle through the start, and not a cycle it only leads into', () => {
    const edges = graph([
      [cgt('a'), [cgt('b'), cgt('c')]],
      [cgt('b'), [cgt('d')]],
      [cgt('d'), [cgt('a')]],
      [cgt('c'), [cgt('a')]],
    ]);
    expect(formatCycle(findCycle(cgt('a'), edges) ?? [])).toBe(
      'ClusterGitTrack/a → ClusterGitTrack/c → ClusterGitTrack/a',
    );
    const into = graph([
      [gt('app'), [gt('x')]],
      [gt('x'), [gt('y')]],
      [gt('y'), [gt('x')]],
    ]);
    expect(findCycle(gt('app'), into)).toBeUndefined();
    expect(formatCycle(findCycle(gt('x'), into) ?? [])).toBe(
      'GitTrack/team/x → GitTrack/team/y → GitTrack/team/x',
    );
  });
});
