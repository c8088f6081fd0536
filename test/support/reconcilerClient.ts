import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { applyFile } from '../../lib/kube/applyFile';
import { KubeClient } from '../../lib/kube/kubeClient';
import { requestServiceAccountToken } from '../../lib/kube/serviceAccountToken';
import { tokenKubeconfig } from '../../lib/kube/tokenKubeconfig';
import { kubeconfig } from './cluster';

const rbacFile = join(import.meta.dirname, '..', '..', 'infra', 'rbac', 'reconciler.yaml');

/**
 * A client that is the reconciler as shipped: infra/rbac/reconciler.yaml applied by `admin`, and a
 * token minted for its ServiceAccount (lightkeeper-system/lightkeeper-reconciler).
 */
export async function reconcilerClient(admin: KubeClient): Promise<KubeClient> {
  await applyFile(admin, rbacFile);
  const minted = await requestServiceAccountToken(
    admin,
    { namespace: 'lightkeeper-system', name: 'lightkeeper-reconciler' },
    3600,
  );
  const base = new KubeConfig();
  base.loadFromFile(kubeconfig());
  const kc = new KubeConfig();
  kc.loadFromString(tokenKubeconfig(base, 'lightkeeper-reconciler', minted.token));
  return KubeClient.fromKubeConfig(kc);
}
