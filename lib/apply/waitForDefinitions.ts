import { waitForCrdsEstablished } from '../kube/crds';
import type { KubeClient } from '../kube/kubeClient';
import type { PlannedObject } from '../plan/plannedObject';

/** After the definitions stage: CRDs must be Established before their custom resources apply. */
export async function waitForDefinitions(
  client: KubeClient,
  applied: readonly PlannedObject[],
  timeoutMs: number,
) {
  const crds = applied
    .filter(
      (p) =>
        p.manifest.ref.group === 'apiextensions.k8s.io' && p.manifest.ref.kind === 'CustomResourceDefinition',
    )
    .map((p) => p.manifest.ref.name);
  // Namespaces are Active as soon as they exist; the apply that created them has returned.
  if (crds.length > 0) await waitForCrdsEstablished(client, crds, timeoutMs);
}
