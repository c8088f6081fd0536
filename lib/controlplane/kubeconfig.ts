import { stringify } from 'yaml';
import type { Pem } from './pki';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** An admin kubeconfig for the local control plane, with its credentials embedded. */
export function adminKubeconfig(server: string, caCert: string, admin: Pem): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'lightkeeper-local', cluster: { server, 'certificate-authority-data': b64(caCert) } }],
    users: [
      {
        name: 'lightkeeper-admin',
        user: { 'client-certificate-data': b64(admin.cert), 'client-key-data': b64(admin.key) },
      },
    ],
    contexts: [
      { name: 'lightkeeper-local', context: { cluster: 'lightkeeper-local', user: 'lightkeeper-admin' } },
    ],
    'current-context': 'lightkeeper-local',
  });
}
