import { Command } from 'commander';
import { ConfigError } from '../errors';
import { formatTable } from '../format/formatTable';
import type { KubeClient } from '../kube/kubeClient';
import { loadTrack } from '../track/loadTrack';
import type { TrackKind } from '../track/trackRef';
import { withUserClient } from './cliKube';
import { eventTable, type KubeEvent } from './eventRows';
import { parseTrackArg } from './parseTrackArg';

interface EventsOptions {
  namespace?: string;
  allNamespaces?: boolean;
}

/** `lightkeeper events [TRACK]`: the Events about tracks, newest last, one line each. */
export function eventsCommand(): Command {
  return new Command('events')
    .description("the Events of tracks' reconciles, newest last: every track in scope, or one")
    .argument(
      '[track]',
      'gittrack/NAME (gt/NAME) or clustergittrack/NAME (cgt/NAME); all tracks when omitted',
    )
    .option('-n, --namespace <namespace>', 'namespace of the GitTracks (default: the context’s)')
    .option('-A, --all-namespaces', 'GitTracks of every namespace')
    .action(async (arg: string | undefined, opts: EventsOptions) => {
      if (opts.allNamespaces && opts.namespace)
        throw new ConfigError('give -n NAMESPACE or -A, not both', { subject: '--all-namespaces' });
      await withUserClient(async (client, contextNamespace) => {
        const namespace = opts.allNamespaces ? undefined : (opts.namespace ?? contextNamespace);
        const track = arg === undefined ? undefined : parseTrackArg(arg, namespace ?? contextNamespace);
        const queries: Array<{ kind: TrackKind; namespace: string | undefined; name?: string }> = track
          ? [{ kind: track.kind, namespace: track.namespace ?? 'default', name: track.name }]
          : [
              { kind: 'GitTrack', namespace },
              // A ClusterGitTrack's Events live in `default`, as for any cluster-scoped object.
              { kind: 'ClusterGitTrack', namespace: 'default' },
            ];
        const events = (await Promise.all(queries.map((q) => listEvents(client, q)))).flat();
        if (events.length === 0) {
          // A typo'd track has no Events either: say that it does not exist (with the closest name).
          if (track) await loadTrack(client, track);
          return void console.log('no events found');
        }
        const { headers, rows } = eventTable(events, { allNamespaces: namespace === undefined && !track });
        console.log(formatTable(headers, rows));
      });
    });
}

async function listEvents(
  client: KubeClient,
  q: { kind: TrackKind; namespace: string | undefined; name?: string },
): Promise<KubeEvent[]> {
  const selector = [`involvedObject.kind=${q.kind}`, ...(q.name ? [`involvedObject.name=${q.name}`] : [])];
  const path = q.namespace
    ? `/api/v1/namespaces/${encodeURIComponent(q.namespace)}/events`
    : '/api/v1/events';
  const list = await client.get<{ items: KubeEvent[] }>(path, {
    query: { fieldSelector: selector.join(',') },
  });
  return list.items;
}
