import { shortCommit } from '../track/shortCommit';
import type { TrackObject } from '../track/trackObject';

/** A track as `lightkeeper get` lists it (also what `-o json` would not show in one line). */
export interface TrackRow {
  namespace: string;
  name: string;
  ready: string;
  reason: string;
  message: string;
  commit: string;
  suspended: string;
  age: string;
}

export interface ListedTrack extends TrackObject {
  metadata: TrackObject['metadata'] & { creationTimestamp?: string; resourceVersion?: string };
}

const messageWidth = 72;

/** The first line of a condition message, cut to fit a terminal row. */
export function oneLine(message: string, width = messageWidth): string {
  const first = message.trim().split('\n')[0]?.trim() ?? '';
  const more = message.trim().includes('\n');
  if (first.length <= width && !more) return first;
  return `${first.slice(0, width - 1).trimEnd()}…`;
}

/** How long ago, as kubectl prints an age: 45s, 12m, 5h, 3d, 2y. */
export function formatAge(since: string | undefined, now: number = Date.now()): string {
  if (!since) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  return days < 730 ? `${days}d` : `${Math.floor(days / 365)}y`;
}

export function trackRow(track: ListedTrack, now: number = Date.now()): TrackRow {
  const ready = track.status?.conditions?.find((c) => c.type === 'Ready');
  const status = track.status;
  return {
    namespace: track.metadata.namespace ?? '',
    name: track.metadata.name,
    ready: ready?.status ?? 'Unknown',
    reason: ready?.reason ?? (status?.observedGeneration ? '' : 'NotReconciled'),
    message: oneLine(ready?.message ?? ''),
    // The commit the cluster runs in full, as kubectl's Commit column (status.lastAppliedShortCommit).
    commit: shortCommit(status?.lastAppliedCommit),
    suspended: String(track.spec.suspend === true),
    age: formatAge(track.metadata.creationTimestamp, now),
  };
}

/**
 * The columns of `lightkeeper get`, as `flux get kustomizations` prints them: the namespace only
 * across namespaces, the kind in the name only when both kinds are listed.
 */
export function trackTable(
  tracks: readonly ListedTrack[],
  options: { allNamespaces: boolean; withKind: boolean; now?: number },
): { headers: string[]; rows: string[][] } {
  const headers = [
    ...(options.allNamespaces ? ['namespace'] : []),
    'name',
    'ready',
    'reason',
    'commit',
    'suspended',
    'age',
    'message',
  ];
  const rows = tracks.map((t) => {
    const r = trackRow(t, options.now);
    const name = options.withKind ? `${t.kind.toLowerCase()}/${r.name}` : r.name;
    return [
      ...(options.allNamespaces ? [r.namespace] : []),
      name,
      r.ready,
      r.reason,
      r.commit,
      r.suspended,
      r.age,
      r.message,
    ];
  });
  return { headers, rows };
}
