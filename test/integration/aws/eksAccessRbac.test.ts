import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFile } from '../../../lib/kube/applyFile';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { freshNamespace, kubeClient } from '../../support/cluster';

// On EKS each function is its IAM role, which its access entry maps to a Kubernetes group;
// infra/rbac/eks-access.yaml binds each group to the roles of the ServiceAccount it stands in for.
// The API server's own authorizer (SubjectAccessReview) answers every question identically for
// the group and for the ServiceAccount.

const rbac = (file: string) => join(import.meta.dirname, '..', '..', '..', 'infra', 'rbac', file);

interface Check {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
}

let admin: KubeClient;
let tenant: string;
beforeAll(async () => {
  admin = await kubeClient();
  for (const file of ['reconciler.yaml', 'webhook.yaml', 'sweep.yaml', 'eks-access.yaml'])
    await applyFile(admin, rbac(file));
  tenant = await freshNamespace(admin, 'eks-rbac');
});
afterAll(async () => {
  await admin?.request('DELETE', `/api/v1/namespaces/${tenant}`).catch(() => {});
  await admin?.close();
});

async function allowed(subject: { user: string; groups: string[] }, check: Check): Promise<boolean> {
  const review = await admin.request<{ status: { allowed: boolean } }>(
    'POST',
    '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { ...subject, resourceAttributes: check },
      },
    },
  );
  return review.status.allowed;
}

const lk = 'lightkeeper.dev';
const checks = (): Check[] => [
  ...['get', 'list', 'watch', 'update', 'delete'].flatMap((verb) => [
    { verb, group: lk, resource: 'gittracks', namespace: tenant },
    { verb, group: lk, resource: 'clustergittracks' },
  ]),
  { verb: 'patch', group: lk, resource: 'gittracks', subresource: 'status', namespace: tenant },
  { verb: 'create', group: lk, resource: 'gittrackobjects', namespace: tenant },
  { verb: 'delete', group: lk, resource: 'clustergittrackobjects' },
  { verb: 'create', group: '', resource: 'events', namespace: tenant },
  { verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace: tenant },
  { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'lightkeeper-system' },
  { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: tenant },
  { verb: 'get', group: '', resource: 'secrets', namespace: tenant },
  { verb: 'list', group: '', resource: 'configmaps', namespace: tenant },
  { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' },
];

const role = (name: string) =>
  `arn:aws:sts::123456789012:assumed-role/lightkeeper-dev-${name}/lightkeeper-dev-${name}`;

describe('infra/rbac/eks-access.yaml', () => {
  it.each([
    ['lightkeeper-reconciler', role('ReconcileRole-1A2B3C')],
    ['lightkeeper-webhook', role('WebhookRole-4D5E6F')],
    ['lightkeeper-sweep', role('SweepRole-7G8H9I')],
  ])('gives the access-entry group %s exactly its ServiceAccount’s rights', async (name, user) => {
    const serviceAccount = {
      user: `system:serviceaccount:lightkeeper-system:${name}`,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:lightkeeper-system', 'system:authenticated'],
    };
    const accessEntry = { user, groups: [name, 'system:authenticated'] };
    const nobody = { user, groups: ['system:authenticated'] };
    let granted = 0;
    for (const check of checks()) {
      const expected = await allowed(serviceAccount, check);
      expect(await allowed(accessEntry, check), `${name}: ${JSON.stringify(check)}`).toBe(expected);
      if (expected) {
        granted++;
        // The right comes from the group, not from being authenticated.
        expect(await allowed(nobody, check), JSON.stringify(check)).toBe(false);
      }
    }
    expect(granted).toBeGreaterThan(0);
  });
});
