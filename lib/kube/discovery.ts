import { splitApiVersion } from '../manifests';
import type { KubeClient } from './kubeClient';

export interface ApiResource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

interface DiscoveryList {
  items?: Array<{
    metadata?: { name?: string };
    versions?: Array<{
      version: string;
      resources?: Array<{
        resource: string;
        responseKind?: { kind?: string };
        scope?: string;
        verbs?: string[];
        subresources?: Array<{ subresource?: string }>;
      }>;
    }>;
  }>;
}

// Aggregated discovery: the whole API surface in two requests instead of one per group-version.
const aggregated =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** Kind → resource and scope, as the API server serves them now; `refresh()` after installing CRDs. */
export class Discovery {
  private byKind = new Map<string, ApiResource>();
  private byGroupKind = new Map<string, ApiResource>();
  private listable: ApiResource[] = [];
  private subresources = new Set<string>();
  private versions: string[] = [];

  constructor(private readonly client: KubeClient) {}

  async refresh(): Promise<this> {
    const [core, groups] = await Promise.all([
      this.client.get<DiscoveryList>('/api', { accept: aggregated }),
      this.client.get<DiscoveryList>('/apis', { accept: aggregated }),
    ]);
    const next = new Map<string, ApiResource>();
    const byGroupKind = new Map<string, ApiResource>();
    const listable = new Map<string, ApiResource>();
    const subresources = new Set<string>();
    const versions = new Set<string>();
    for (const group of [...(core.items ?? []), ...(groups.items ?? [])]) {
      const groupName = group.metadata?.name ?? '';
      for (const v of group.versions ?? []) {
        const groupVersion = groupName === '' ? v.version : `${groupName}/${v.version}`;
        versions.add(groupVersion);
        for (const r of v.resources ?? []) {
          const kind = r.responseKind?.kind;
          if (!kind) continue;
          versions.add(`${groupVersion}/${kind}`);
          const resource = {
            group: groupName,
            version: v.version,
            kind,
            plural: r.resource,
            namespaced: r.scope === 'Namespaced',
          };
          next.set(key(groupName, v.version, kind), resource);
          // Versions come in preference order: the first that serves a kind stands for it.
          if (!byGroupKind.has(`${groupName}/${kind}`)) byGroupKind.set(`${groupName}/${kind}`, resource);
          for (const s of r.subresources ?? [])
            if (s.subresource) subresources.add(`${key(groupName, v.version, kind)}/${s.subresource}`);
          // Versions come in preference order: the first that lists a resource stands for it.
          const listKey = `${groupName}/${r.resource}`;
          if (r.verbs?.includes('list') && !listable.has(listKey)) listable.set(listKey, resource);
        }
      }
    }
    this.byKind = next;
    this.byGroupKind = byGroupKind;
    this.listable = [...listable.values()];
    this.subresources = subresources;
    this.versions = [...versions].sort();
    return this;
  }

  /**
   * Every served group-version and group-version/Kind (`apps/v1`, `apps/v1/Deployment`, `v1/Pod`):
   * the API versions a Helm chart's `.Capabilities.APIVersions.Has` asks about, as Helm's own
   * discovery lists them.
   */
  apiVersions(): readonly string[] {
    return this.versions;
  }

  /** Every resource that can be listed, once each, in its preferred version. */
  listableResources(): readonly ApiResource[] {
    return this.listable;
  }

  /** Whether the server serves `subresource` (e.g. `status`) of apiVersion + kind. */
  hasSubresource(apiVersion: string, kind: string, subresource: string): boolean {
    const { group, version } = splitApiVersion(apiVersion) ?? { group: '', version: apiVersion };
    return this.subresources.has(`${key(group, version, kind)}/${subresource}`);
  }

  /** The served resource for apiVersion + kind, or undefined when the server does not know it. */
  resourceFor(apiVersion: string, kind: string): ApiResource | undefined {
    const { group, version } = splitApiVersion(apiVersion) ?? { group: '', version: apiVersion };
    return this.byKind.get(key(group, version, kind));
  }

  /**
   * The served resource for apiVersion + kind, else the same kind of the same group in the version
   * the server prefers (an object is one object whatever version it is read in); undefined when the
   * server serves the kind in no version now.
   */
  resourceInAnyVersion(apiVersion: string, kind: string): ApiResource | undefined {
    const { group } = splitApiVersion(apiVersion) ?? { group: '' };
    return this.resourceFor(apiVersion, kind) ?? this.byGroupKind.get(`${group}/${kind}`);
  }
}

const key = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;
