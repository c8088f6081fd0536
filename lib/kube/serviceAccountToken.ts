import type { KubeClient } from './kubeClient';

interface TokenRequest {
  status: { token: string; expirationTimestamp: string };
}

/**
 * A bound token of a ServiceAccount through the TokenRequest API (what `kubectl create token`
 * does); the server may shorten the expiration it grants.
 */
export async function requestServiceAccountToken(
  client: KubeClient,
  account: { namespace: string; name: string },
  expirationSeconds: number,
): Promise<{ token: string; expires: Date }> {
  const { status } = await client.request<TokenRequest>(
    'POST',
    `/api/v1/namespaces/${encodeURIComponent(account.namespace)}/serviceaccounts/${encodeURIComponent(account.name)}/token`,
    {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds } },
      subject: `ServiceAccount/${account.namespace}/${account.name}`,
    },
  );
  return { token: status.token, expires: new Date(status.expirationTimestamp) };
}
