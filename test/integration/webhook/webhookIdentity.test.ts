import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../../lib/kube/loadKubeConfig';
import type { Method } from '../../../lib/kube/requestPolicy';
import {
  provisionWebhookIdentity,
  webhookServiceAccount,
  webhookUser,
} from '../../../lib/localstack/webhookIdentity';
import { listTracks } from '../../../lib/webhook/listTracks';
import { freshNamespace, kubeClient, kubeconfig, uniqueName } from '../../support/cluster';

// The webhook faces the internet: the identity it lists tracks with (infra/rbac/webhook.yaml, a real
// token of its ServiceAccount minted through the TokenRequest API) may read tracks and nothing else.

const api = '/apis/lightkeeper.dev/v1alpha1';
let admin: KubeClient;
let webhook: KubeClient;
let dir: string;
let namespace: string;
const clusterTrack = uniqueName('webhook-identity');

const trackBody = (kind: string, name: string) => ({
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind,
  metadata: { name },
  spec: { repository: 'https://example.com/org/repo.git', reference: 'main', subPath: name },
});

beforeAll(async () => {
  admin = await kubeClient();
  namespace = await freshNamespace(admin, 'webhook-identity');
  await admin.request('POST', `${api}/namespaces/${namespace}/gittracks`, {
    body: trackBody('GitTrack', 'app'),
  });
  await admin.request('POST', `${api}/clustergittracks`, {
    body: trackBody('ClusterGitTrack', clusterTrack),
  });
  await admin.request('POST', `/api/v1/namespaces/${namespace}/secrets`, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'git-credentials' },
      stringData: { token: 't' },
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'lightkeeper-webhook-identity-'));
  webhook = await kubeClientFromFile((await provisionWebhookIdentity(admin, kubeconfig(), dir)).kubeconfig);
});

afterAll(async () => {
  await webhook?.close();
  await admin?.request('DELETE', `${api}/clustergittracks/${clusterTrack}`).catch(() => {});
  await admin?.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => {});
  await admin?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the webhook’s identity', () => {
  it('is the ServiceAccount’s token alone', async () => {
    const review = await webhook.request<{ status: { userInfo: { username: string } } }>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    );
    expect(review.status.userInfo.username).toBe(webhookUser);
  });

  it('lists every GitTrack and ClusterGitTrack through lib/webhook/listTracks', async () => {
    const all = await listTracks(webhook, {
      gitTrackMode: 'Enabled',
      clusterGitTrackMode: 'IncludeNamespaced',
    });
    expect(all.map((t) => t.ref)).toEqual(
      expect.arrayContaining([
        { kind: 'GitTrack', namespace, name: 'app' },
        { kind: 'ClusterGitTrack', namespace: undefined, name: clusterTrack },
      ]),
    );
    const one = await listTracks(webhook, {
      gitTrackMode: 'Enabled',
      clusterGitTrackMode: 'Disabled',
      namespace,
    });
    expect(one).toEqual([
      {
        ref: { kind: 'GitTrack', namespace, name: 'app' },
        spec: {
          repository: 'https://example.com/org/repo.git',
          reference: 'main',
          subPath: 'app',
          suspend: false,
        },
        generation: 1,
        observedGeneration: undefined,
      },
    ]);
    expect(await webhook.get(`${api}/clustergittracks/${clusterTrack}`)).toMatchObject({
      metadata: { name: clusterTrack },
    });
  });

  it('is refused everything else: Secrets, ConfigMaps, writes to tracks, tracking objects, escalation', async () => {
    const ns = `/api/v1/namespaces/${namespace}`;
    const merge = { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' };
    const refused: Array<[string, Method, string, object?]> = [
      ['read a Secret', 'GET', `${ns}/secrets/git-credentials`],
      ['list Secrets everywhere', 'GET', '/api/v1/secrets'],
      ['list ConfigMaps', 'GET', `${ns}/configmaps`],
      ['list Pods', 'GET', `${ns}/pods`],
      [
        'create a GitTrack',
        'POST',
        `${api}/namespaces/${namespace}/gittracks`,
        { body: trackBody('GitTrack', 'x') },
      ],
      ['patch a GitTrack', 'PATCH', `${api}/namespaces/${namespace}/gittracks/app`, merge],
      ['patch a GitTrack’s status', 'PATCH', `${api}/namespaces/${namespace}/gittracks/app/status`, merge],
      ['delete a GitTrack', 'DELETE', `${api}/namespaces/${namespace}/gittracks/app`],
      ['patch a ClusterGitTrack', 'PATCH', `${api}/clustergittracks/${clusterTrack}`, merge],
      [
        'create a ClusterGitTrack',
        'POST',
        `${api}/clustergittracks`,
        { body: trackBody('ClusterGitTrack', 'x') },
      ],
      ['list GitTrackObjects', 'GET', `${api}/gittrackobjects`],
      ['list ClusterGitTrackObjects', 'GET', `${api}/clustergittrackobjects`],
      ['read Leases', 'GET', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`],
      ['list CRDs', 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'],
      ['create a Namespace', 'POST', '/api/v1/namespaces', { body: { metadata: { name: uniqueName('x') } } }],
      [
        'mint itself a token',
        'POST',
        `/api/v1/namespaces/${webhookServiceAccount.namespace}/serviceaccounts/${webhookServiceAccount.name}/token`,
        { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } },
      ],
      [
        'bind itself to cluster-admin',
        'POST',
        '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
        {
          body: {
            metadata: { name: uniqueName('escalate') },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
            subjects: [{ kind: 'User', name: webhookUser }],
          },
        },
      ],
    ];
    for (const [what, method, path, options] of refused) {
      await expect(webhook.request(method, path, options), what).rejects.toMatchObject({ status: 403 });
    }
    // Nor may it act as anyone else.
    await expect(
      webhook
        .impersonating(`system:serviceaccount:${namespace}:default`)
        .get(`${api}/namespaces/${namespace}/gittracks`),
    ).rejects.toMatchObject({ status: 403 });
    await expect(webhook.impersonating('system:admin').get(`${ns}/secrets`)).rejects.toMatchObject({
      status: 403,
    });
  });

  it('holds no rule beyond get, list and watch of tracks', async () => {
    type Rule = { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] };
    const rulesOf = async (client: KubeClient) =>
      (
        await client.request<{ status: { resourceRules: Rule[] } }>(
          'POST',
          '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
          {
            body: {
              apiVersion: 'authorization.k8s.io/v1',
              kind: 'SelfSubjectRulesReview',
              spec: { namespace },
            },
          },
        )
      ).status.resourceRules;
    // What every authenticated ServiceAccount may do anyway (ask what it may do, read trust
    // bundles...): the rules of a ServiceAccount with no binding at all.
    const baseline = new Set(
      (await rulesOf(admin.impersonating(`system:serviceaccount:${namespace}:default`))).map((r) =>
        JSON.stringify(r),
      ),
    );
    const own = (await rulesOf(webhook)).filter((r) => !baseline.has(JSON.stringify(r)));
    expect(own).toEqual([
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: ['lightkeeper.dev'],
        resources: ['gittracks', 'clustergittracks'],
      },
    ]);
  });
});
