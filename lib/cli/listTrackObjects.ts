import { ConfigError, isKubeApiError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import type { TrackKind } from '../track/trackRef';
import type { ListedTrack } from './trackRows';

/** Which tracks a listing command covers: one kind or both; a namespace, or every one. */
export interface TrackScope {
  kinds: readonly TrackKind[];
  /** The GitTracks' namespace; undefined: all namespaces. */
  namespace: string | undefined;
}

/** `gittracks`, `gt`, `clustergittrack`… as kubectl takes resource names; undefined: both kinds. */
export function trackKindsOf(type: string | undefined): TrackKind[] | undefined {
  if (type === undefined) return ['GitTrack', 'ClusterGitTrack'];
  const t = type.toLowerCase();
  if (['gittrack', 'gittracks', 'gt'].includes(t)) return ['GitTrack'];
  if (['clustergittrack', 'clustergittracks', 'cgt'].includes(t)) return ['ClusterGitTrack'];
  return undefined;
}

/** The tracks in scope, whole (as the user's identity reads them), sorted by namespace and name. */
export async function listTrackObjects(client: KubeClient, scope: TrackScope): Promise<ListedTrack[]> {
  const lists = await Promise.all(
    scope.kinds.map(async (kind) => {
      const resource = lightkeeperResources[kind];
      const path = resourcePath({
        ...resource,
        namespace: resource.namespaced ? scope.namespace : undefined,
      });
      const items: ListedTrack[] = [];
      let next: string | undefined;
      do {
        const page = await client
          .get<{ items: ListedTrack[]; metadata?: { continue?: string } }>(path, {
            query: { limit: 500, continue: next },
          })
          .catch((e: unknown) => {
            throw notInstalled(e, resource.plural);
          });
        items.push(...page.items.map((t) => ({ ...t, kind })));
        next = page.metadata?.continue || undefined;
      } while (next);
      return items;
    }),
  );
  return lists
    .flat()
    .sort((a, b) =>
      `${a.kind === 'GitTrack' ? 0 : 1}/${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
        `${b.kind === 'GitTrack' ? 0 : 1}/${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );
}

/** A 404 on a list: the API server serves no such type, so lightkeeper's CRDs are not installed. */
function notInstalled(e: unknown, plural: string): unknown {
  if (!isKubeApiError(e) || e.status !== 404) return e;
  return new ConfigError(
    `this cluster serves no ${plural}.lightkeeper.dev: lightkeeper's CRDs are not installed`,
    {
      subject: plural,
      cause: e,
      hint: 'install them with `kubectl apply -f crds/` (from a checkout of lightkeeper)',
    },
  );
}
