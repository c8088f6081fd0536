import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Agent, request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyFile } from '../../../lib/kube/applyFile';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeConfigCredentials } from '../../../lib/kube/kubeConfigCredentials';
import { requestServiceAccountToken } from '../../../lib/kube/serviceAccountToken';
import { tokenKubeconfig } from '../../../lib/kube/tokenKubeconfig';
import { eventually, kubeClient, kubeconfig } from '../../support/cluster';

// infra/flowcontrol/lightkeeper.yaml gives lightkeeper's own identities a priority level of their
// own, on the real API server's API Priority and Fairness: every answer names the FlowSchema and
// priority level that classified its request (X-Kubernetes-PF-* headers), so the test asks the
// server itself which identity lands where.

const infra = join(import.meta.dirname, '..', '..', '..', 'infra');
const flowControl = '/apis/flowcontrol.apiserver.k8s.io/v1';

interface Named {
  metadata: { uid: string };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

let admin: KubeClient;
let uids: { schema: string; level: string; serviceAccounts: string; exempt: string };

/** The FlowSchema and priority level UIDs the server's answer to GET /version names. */
async function classify(kc: KubeConfig, headers: Record<string, string> = {}) {
  const { server, tls, headers: auth } = await kubeConfigCredentials(kc);
  const dispatcher = new Agent({ connect: { ...tls } });
  try {
    const res = await request(`${server}/version`, { headers: { ...auth, ...headers }, dispatcher });
    await res.body.text();
    return {
      schema: res.headers['x-kubernetes-pf-flowschema-uid'],
      level: res.headers['x-kubernetes-pf-prioritylevel-uid'],
    };
  } finally {
    await dispatcher.close();
  }
}

function adminConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig());
  return kc;
}

async function serviceAccountConfig(name: string): Promise<KubeConfig> {
  const { token } = await requestServiceAccountToken(admin, { namespace: 'lightkeeper-system', name }, 600);
  const kc = new KubeConfig();
  kc.loadFromString(tokenKubeconfig(adminConfig(), name, token));
  return kc;
}

beforeAll(async () => {
  admin = await kubeClient();
  for (const file of [
    'rbac/reconciler.yaml',
    'rbac/webhook.yaml',
    'rbac/sweep.yaml',
    'flowcontrol/lightkeeper.yaml',
  ])
    await applyFile(admin, join(infra, file));
  // Not dangling: the server found its priority level.
  await eventually('the FlowSchema is bound to its priority level', async () => {
    const s = await admin.get<Named>(`${flowControl}/flowschemas/lightkeeper`);
    return s.status?.conditions?.find((c) => c.type === 'Dangling')?.status === 'False';
  });
  const schema = await admin.get<Named>(`${flowControl}/flowschemas/lightkeeper`);
  const level = await admin.get<Named>(`${flowControl}/prioritylevelconfigurations/lightkeeper`);
  const serviceAccounts = await admin.get<Named>(`${flowControl}/flowschemas/service-accounts`);
  const exempt = await admin.get<Named>(`${flowControl}/flowschemas/exempt`);
  uids = {
    schema: schema.metadata.uid,
    level: level.metadata.uid,
    serviceAccounts: serviceAccounts.metadata.uid,
    exempt: exempt.metadata.uid,
  };
});

describe('API Priority and Fairness for lightkeeper', () => {
  it.each(['lightkeeper-reconciler', 'lightkeeper-webhook', 'lightkeeper-sweep'])(
    "%s's requests take lightkeeper's priority level",
    async (name) => {
      const kc = await serviceAccountConfig(name);
      // The configuration reaches the request filter a moment after it is stored.
      await eventually(`${name} is classified as lightkeeper`, async () => {
        const { schema, level } = await classify(kc);
        return schema === uids.schema && level === uids.level;
      });
    },
  );

  it("an EKS function's group (its IAM role's access entry) takes it too", async () => {
    const asEksRole = {
      'impersonate-user': 'arn:aws:sts::123456789012:assumed-role/lightkeeper-reconcile/fn',
      'impersonate-group': 'lightkeeper-reconciler',
    };
    await eventually('the group is classified as lightkeeper', async () => {
      const { schema, level } = await classify(adminConfig(), asEksRole);
      return schema === uids.schema && level === uids.level;
    });
  });

  it("a GitTrack's children, written as the tenant's ServiceAccount, are that ServiceAccount's flow", async () => {
    // What lib/identity/trackIdentity.ts sends for a GitTrack's children: the tenant's account.
    const asTenant = { 'impersonate-user': 'system:serviceaccount:tenant-a:deployer' };
    expect((await classify(adminConfig(), asTenant)).schema).toBe(uids.serviceAccounts);
    // The cluster's administrators stay exempt.
    expect((await classify(adminConfig())).schema).toBe(uids.exempt);
  });
});
