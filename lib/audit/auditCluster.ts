import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { classifyOwnerReferences, type Finding } from './classifyOwnerReferences';
import { scanObjects } from './scanObjects';

export interface AuditReport {
  /** Types and objects read. */
  scanned: { types: number; objects: number };
  /** Types that could not be listed: owners of these types were not seen. */
  skipped: string[];
  findings: Finding[];
}

/**
 * Reads every object of every served type (metadata only) and reports each owner reference the
 * garbage collector will treat as absent or invalid. Reads only. `namespaces`, when given, limits
 * the findings (never the scan: an owner may live anywhere) to dependents in those namespaces.
 */
export async function auditCluster(
  client: KubeClient,
  options: { namespaces?: readonly string[]; onProgress?: (done: number, total: number) => void } = {},
): Promise<AuditReport> {
  const discovery = await new Discovery(client).refresh();
  const resources = discovery.listableResources();
  const { objects, skipped } = await scanObjects(client, resources, options.onProgress);
  const all = classifyOwnerReferences(objects, (apiVersion, kind) => discovery.resourceFor(apiVersion, kind));
  const wanted = options.namespaces?.length ? new Set(options.namespaces) : undefined;
  const findings = wanted
    ? all.filter((f) => f.dependent.namespace !== undefined && wanted.has(f.dependent.namespace))
    : all;
  return { scanned: { types: resources.length, objects: objects.length }, skipped, findings };
}
