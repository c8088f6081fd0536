import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { files } from '../../../lib/controlplane/flags';
import { generatePki } from '../../../lib/controlplane/pki';
import { ApiUnreachableError, KubeApiError } from '../../../lib/errors';
import { KubeClient } from '../../../lib/kube/kubeClient';
import { defaultRequestPolicy } from '../../../lib/kube/requestPolicy';
import { staticKubeconfigCredentials } from '../../../lib/kube/staticKubeconfig';
import { kubeconfig, localControlPlane } from '../../support/cluster';

// A pool's connections share one secure context (lib/kube/tlsConnect.ts): the server is still
// verified against the kubeconfig's CA, and the client certificate is still what authenticates.
// The plane's kubeconfig sends a token (lib/controlplane/kubeconfig.ts): these pools present the
// plane's admin certificate instead, and no token.
const plane = localControlPlane();
const credentials = () => {
  const { tls, ...rest } = staticKubeconfigCredentials(readFileSync(kubeconfig(), 'utf8'), kubeconfig());
  const f = files(plane?.dir ?? '');
  const admin = { cert: readFileSync(f.adminCert, 'utf8'), key: readFileSync(f.adminKey, 'utf8') };
  return { ...rest, headers: {}, tls: { ...tls, ...admin } };
};
const once = { ...defaultRequestPolicy, attempts: 1 };

describe.skipIf(!plane)('a pool with one secure context', () => {
  it('authenticates every one of its concurrent connections with the client certificate', async () => {
    const client = KubeClient.fromCredentials(credentials(), { connections: 8, policy: once });
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          client.request<{ status: { userInfo: { username: string } } }>(
            'POST',
            '/apis/authentication.k8s.io/v1/selfsubjectreviews',
            { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
          ),
        ),
      );
      const own = answers.map((a) => a.status.userInfo.username);
      expect(new Set(own).size).toBe(1);
      // The certificate's CN=lightkeeper-admin (lib/controlplane/pki.ts), not anonymous.
      expect(own[0]).toBe('lightkeeper-admin');
    } finally {
      await client.close();
    }
  });

  it('refuses a server its CA did not sign', async () => {
    const other = await generatePki();
    const { tls, ...rest } = credentials();
    const client = KubeClient.fromCredentials(
      { ...rest, tls: { ...tls, ca: other.ca.cert } },
      { policy: once },
    );
    try {
      const failure = await client.get('/version').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ApiUnreachableError);
      expect(String((failure as Error).cause)).toMatch(/certificate/i);
    } finally {
      await client.close();
    }
  });

  it('presents no identity without a client certificate', async () => {
    const { tls, ...rest } = credentials();
    const client = KubeClient.fromCredentials(
      { ...rest, tls: { ca: tls.ca, rejectUnauthorized: true } },
      { policy: once },
    );
    try {
      const failure = await client.get('/api/v1/namespaces').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(KubeApiError);
      expect((failure as KubeApiError).status).toBe(403);
    } finally {
      await client.close();
    }
  });
});
