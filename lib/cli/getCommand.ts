import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { ConfigError, TrackNotFoundError } from '../errors';
import { formatTable } from '../format/formatTable';
import { withUserClient } from './cliKube';
import { closestName } from './closestName';
import { listTrackObjects, type TrackScope, trackKindsOf } from './listTrackObjects';
import { type ListedTrack, trackTable } from './trackRows';

interface GetOptions {
  namespace?: string;
  allNamespaces?: boolean;
  watch?: boolean;
  output: 'table' | 'json' | 'yaml';
}

/** `lightkeeper get [gittracks|clustergittracks] [NAME]`: `flux get kustomizations`' shape. */
export function getCommand(): Command {
  return new Command('get')
    .description('list tracks: ready, reason, commit, suspended, age and message')
    .argument('[type]', 'gittracks (gt) or clustergittracks (cgt); both when omitted')
    .argument('[name]', 'only this track')
    .option('-n, --namespace <namespace>', 'namespace of the GitTracks (default: the context’s)')
    .option('-A, --all-namespaces', 'GitTracks of every namespace')
    .option('-w, --watch', 'after the list, print each track again when it changes (Ctrl-C stops)')
    .addOption(
      new Option('-o, --output <format>', 'output format')
        .choices(['table', 'json', 'yaml'])
        .default('table'),
    )
    .action(async (type: string | undefined, name: string | undefined, opts: GetOptions) => {
      const kinds = trackKindsOf(type);
      if (!kinds)
        throw new ConfigError(`unknown type ${type}: expected gittracks (gt) or clustergittracks (cgt)`, {
          subject: type,
        });
      if (opts.allNamespaces && opts.namespace)
        throw new ConfigError('give -n NAMESPACE or -A, not both', { subject: '--all-namespaces' });
      await withUserClient(async (client, contextNamespace) => {
        const scope: TrackScope = {
          kinds,
          namespace: opts.allNamespaces ? undefined : (opts.namespace ?? contextNamespace),
        };
        const show = { allNamespaces: opts.allNamespaces === true, withKind: kinds.length > 1 };
        const list = async () => only(await listTrackObjects(client, scope), name, scope);
        const tracks = await list();
        if (opts.output !== 'table') {
          const doc = { apiVersion: 'v1', kind: 'List', items: tracks };
          return void console.log(opts.output === 'json' ? JSON.stringify(doc, null, 2) : stringify(doc));
        }
        if (tracks.length === 0 && !opts.watch)
          return void console.log(`no ${kinds.join(' or ')} found${nowhere(scope)}`);
        const { headers, rows } = trackTable(tracks, show);
        console.log(formatTable(headers, rows));
        if (opts.watch) await watch(list, tracks, show);
      });
    });
}

const nowhere = (scope: TrackScope) =>
  scope.kinds.includes('GitTrack')
    ? scope.namespace
      ? ` in namespace ${scope.namespace}`
      : ' in any namespace'
    : '';

/** The one named track, or a TrackNotFoundError that names the closest existing one. */
function only(tracks: ListedTrack[], name: string | undefined, scope: TrackScope): ListedTrack[] {
  if (name === undefined) return tracks;
  const found = tracks.filter((t) => t.metadata.name === name);
  if (found.length > 0) return found;
  const near = closestName(
    name,
    tracks.map((t) => t.metadata.name),
  );
  throw new TrackNotFoundError(`${scope.kinds.join(' or ')} ${name} not found${nowhere(scope)}`, {
    subject: name,
    hint: near ? `did you mean ${near}?` : 'list them with `lightkeeper get -A`',
  });
}

/** Reads the tracks every 2 s and prints a row for each one whose resourceVersion moved. */
async function watch(
  list: () => Promise<ListedTrack[]>,
  first: ListedTrack[],
  show: { allNamespaces: boolean; withKind: boolean },
): Promise<never> {
  const key = (t: ListedTrack) => `${t.kind}/${t.metadata.namespace ?? ''}/${t.metadata.name}`;
  const seen = new Map(first.map((t) => [key(t), t.metadata.resourceVersion]));
  for (;;) {
    await sleep(2000);
    const changed = (await list()).filter((t) => seen.get(key(t)) !== t.metadata.resourceVersion);
    for (const t of changed) seen.set(key(t), t.metadata.resourceVersion);
    if (changed.length === 0) continue;
    // Aligned on their own, without headers, as `kubectl get -w` prints further rows.
    const { headers, rows } = trackTable(changed, show);
    console.log(formatTable(headers, rows).split('\n').slice(1).join('\n'));
  }
}
