import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';

const b64 = (s: string) => Buffer.from(s).toString('base64');

const adminUser = 'lightkeeper-admin';

/**
 * The admin's bearer token and the line of the API server's `--token-auth-file` that makes it
 * `lightkeeper-admin` in `system:masters`, as the admin client certificate does.
 */
export function adminToken(): { token: string; tokenFileLine: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenFileLine: `${token},${adminUser},${adminUser},"system:masters"\n` };
}

/**
 * An admin kubeconfig for the local control plane, with its credentials embedded. It sends a
 * bearer token, not the admin client certificate: the API server verifies a client certificate's
 * chain (an ECDSA signature) on every request, not once per connection, which took 11% of its CPU
 * in a first apply (docs/benchmarks.md), while clusters authenticate automation with tokens they
 * cache (EKS, GKE, ServiceAccounts). With both, the API server would verify the certificate first.
 */
export function adminKubeconfig(server: string, caCert: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'lightkeeper-local', cluster: { server, 'certificate-authority-data': b64(caCert) } }],
    users: [
      {
        name: adminUser,
        user: { token },
      },
    ],
    contexts: [{ name: 'lightkeeper-local', context: { cluster: 'lightkeeper-local', user: adminUser } }],
    'current-context': 'lightkeeper-local',
  });
}
