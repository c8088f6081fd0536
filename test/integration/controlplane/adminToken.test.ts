import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeClient, kubeconfig, localControlPlane } from '../../support/cluster';

// The plane's kubeconfig authenticates with a bearer token. With a client certificate the API
// server verifies its signature on every request (lib/controlplane/kubeconfig.ts), a cost no
// cluster that authenticates automation with cached tokens charges, and three requests per new
// object paid it three times in every benchmark and test.
describe.skipIf(!localControlPlane())("the local control plane's admin kubeconfig", () => {
  it('holds a token and no client certificate', () => {
    const config = parse(readFileSync(kubeconfig(), 'utf8')) as {
      users: Array<{ user: Record<string, unknown> }>;
    };
    expect(config.users).toHaveLength(1);
    const user = config.users[0]?.user ?? {};
    expect(Object.keys(user)).toEqual(['token']);
    expect(user.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is lightkeeper-admin in system:masters, as the admin certificate is', async () => {
    const client = await kubeClient();
    try {
      const review = await client.request<{ status: { userInfo: { username: string; groups: string[] } } }>(
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
      );
      expect(review.status.userInfo.username).toBe('lightkeeper-admin');
      expect(review.status.userInfo.groups).toContain('system:masters');
      expect(review.status.userInfo.groups).toContain('system:authenticated');
    } finally {
      await client.close();
    }
  });
});
