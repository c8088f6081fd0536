import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../../lib/kube/loadKubeConfig';
import type { Method } from '../../../lib/kube/requestPolicy';
import { provisionSweepIdentity } from '../../../lib/localstack/sweepIdentity';
import { listTracks } from '../../../lib/webhook/listTracks';
import { freshNamespace, kubeClient, kubeconfig } from '../../support/cluster';

// The sweep only lists tracks and invokes the reconcile function: the identity it lists them with
// (infra/rbac/sweep.yaml, a real token of its ServiceAccount) may read tracks and nothing else.

const api = '/apis/lightkeeper.dev/v1alpha1';
let admin: KubeClient;
let sweep: KubeClient;
let user: string;
let dir: string;
let namespace: string;

beforeAll(async () => {
  admin = await kubeClient();
  namespace = await freshNamespace(admin, 'sweep-identity');
  await admin.request('POST', `${api}/namespaces/${namespace}/gittracks`, {
    body: {
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'GitTrack',
      metadata: { name: 'app' },
      spec: { repository: 'https://example.com/org/repo.git', reference: 'main' },
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'lightkeeper-sweep-identity-'));
  const identity = await provisionSweepIdentity(admin, kubeconfig(), dir);
  user = identity.user;
  sweep = await kubeClientFromFile(identity.kubeconfig);
});

afterAll(async () => {
  await sweep?.close();
  await admin?.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => {});
  await admin?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the sweep’s identity', () => {
  it('is its ServiceAccount’s token alone, and lists tracks as the sweep does', async () => {
    const review = await sweep.request<{ status: { userInfo: { username: string } } }>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    );
    expect(review.status.userInfo.username).toBe(
      'system:serviceaccount:lightkeeper-system:lightkeeper-sweep',
    );
    expect(user).toBe(review.status.userInfo.username);
    const tracks = await listTracks(sweep, {
      gitTrackMode: 'Enabled',
      clusterGitTrackMode: 'Disabled',
      namespace,
    });
    expect(tracks.map((t) => t.ref)).toEqual([{ kind: 'GitTrack', namespace, name: 'app' }]);
  });

  it('may write nothing: no track, status, Event, Lease, tracking object or Secret', async () => {
    const ns = `/api/v1/namespaces/${namespace}`;
    const merge = { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' };
    const refused: Array<[string, Method, string, object?]> = [
      ['patch a GitTrack', 'PATCH', `${api}/namespaces/${namespace}/gittracks/app`, merge],
      ['patch a GitTrack’s status', 'PATCH', `${api}/namespaces/${namespace}/gittracks/app/status`, merge],
      ['create an Event', 'POST', `${ns}/events`, { body: { metadata: { name: 'x' } } }],
      ['read Leases', 'GET', '/apis/coordination.k8s.io/v1/namespaces/lightkeeper-system/leases'],
      ['list GitTrackObjects', 'GET', `${api}/gittrackobjects`],
      ['list Secrets', 'GET', `${ns}/secrets`],
      ['impersonate', 'GET', `${api}/namespaces/${namespace}/gittracks`],
    ];
    for (const [what, method, path, options] of refused) {
      const client =
        what === 'impersonate' ? sweep.impersonating(`system:serviceaccount:${namespace}:default`) : sweep;
      await expect(client.request(method, path, options), what).rejects.toMatchObject({ status: 403 });
    }
  });
});
