import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';

/** What a chart's `.Capabilities` says about the cluster. */
export interface HelmCapabilities {
  /** The API server's `gitVersion` (`v1.37.2`): a chart's `kubeVersion` constraint is checked against it. */
  kubeVersion: string;
  /** Served group-versions and group-version/Kinds (lib/kube/discovery.ts `apiVersions`). */
  apiVersions: readonly string[];
}

/** The cluster's capabilities: its version (`GET /version`) and the discovery the run already read. */
export async function readHelmCapabilities(
  client: KubeClient,
  discovery: Discovery,
): Promise<HelmCapabilities> {
  const version = await client.get<{ gitVersion?: string }>('/version');
  return { kubeVersion: version.gitVersion ?? '', apiVersions: discovery.apiVersions() };
}
