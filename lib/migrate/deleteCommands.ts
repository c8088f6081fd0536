import { type FarosTrackerKind, type FarosTrackKind, farosResources } from './farosResources';

export interface FarosObjectRef {
  kind: FarosTrackKind | FarosTrackerKind;
  namespace?: string | undefined;
  name: string;
}

// Tracking objects first: once they are gone, nothing of Faros is left for a track to orphan.
const order: Array<FarosObjectRef['kind']> = [
  'GitTrackObject',
  'ClusterGitTrackObject',
  'GitTrack',
  'ClusterGitTrack',
];

/**
 * The `kubectl delete … --cascade=orphan` commands that remove exactly these Faros objects, one per
 * kind and namespace. Orphan: the collector removes the objects' references from their dependents
 * instead of deleting them (after the migration no child references them any more; this is the
 * belt to that braces). `--ignore-not-found`: the collector may already have deleted a tracking
 * object whose owner reference was illegal.
 */
export function deleteCommands(objects: readonly FarosObjectRef[]): string[] {
  const groups = new Map<
    string,
    { kind: FarosObjectRef['kind']; namespace?: string | undefined; names: string[] }
  >();
  for (const o of objects) {
    const key = `${order.indexOf(o.kind)}/${o.namespace ?? ''}`;
    const group = groups.get(key) ?? { kind: o.kind, namespace: o.namespace, names: [] };
    group.names.push(o.name);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, g]) =>
      [
        'kubectl delete',
        `${farosResources[g.kind].plural}.faros.pusher.com`,
        ...(g.namespace ? ['-n', g.namespace] : []),
        ...[...g.names].sort(),
        '--cascade=orphan',
        '--ignore-not-found',
      ].join(' '),
    );
}
