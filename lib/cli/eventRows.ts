import { formatAge, oneLine } from './trackRows';

/** What `lightkeeper events` reads of a core/v1 Event. */
export interface KubeEvent {
  metadata: { namespace?: string; creationTimestamp?: string };
  involvedObject: { kind?: string; name?: string; namespace?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  firstTimestamp?: string | null;
}

/** When it last happened: lastTimestamp, else eventTime (events.k8s.io), else when it was written. */
export const lastSeen = (e: KubeEvent) =>
  e.lastTimestamp || e.eventTime || e.firstTimestamp || e.metadata.creationTimestamp || '';

/** Events oldest first, one row each, as `kubectl get events` prints them. */
export function eventTable(
  events: readonly KubeEvent[],
  options: { allNamespaces: boolean; now?: number },
): { headers: string[]; rows: string[][] } {
  const sorted = [...events].sort((a, b) => Date.parse(lastSeen(a)) - Date.parse(lastSeen(b)));
  const headers = [
    ...(options.allNamespaces ? ['namespace'] : []),
    'last seen',
    'type',
    'reason',
    'object',
    'message',
  ];
  const rows = sorted.map((e) => {
    const object = `${(e.involvedObject.kind ?? '').toLowerCase()}/${e.involvedObject.name ?? ''}`;
    const times = (e.count ?? 1) > 1 ? ` (x${e.count})` : '';
    return [
      ...(options.allNamespaces ? [e.involvedObject.namespace ?? ''] : []),
      formatAge(lastSeen(e) || undefined, options.now),
      e.type ?? '',
      e.reason ?? '',
      object,
      `${oneLine((e.message ?? '').replace(/\s*\n\s*/g, '; '), 160)}${times}`,
    ];
  });
  return { headers, rows };
}
