import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { clientNodeCredentials } from '../../../lib/kube/clientNodeCredentials';
import { kubeConfigCredentials } from '../../../lib/kube/kubeConfigCredentials';
import { staticKubeconfigCredentials, UnsupportedKubeconfigUser } from '../../../lib/kube/staticKubeconfig';

// The functions read their kubeconfig without client-node (lib/kube/staticKubeconfig.ts); the CLI
// reads it with client-node. The oracle: both resolve the same kubeconfig to the same server, TLS
// options and headers.

const dir = mkdtempSync(join(tmpdir(), 'lk-static-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pem = (what: string) => `-----BEGIN ${what}-----\nMIIB${what.length}\n-----END ${what}-----\n`;
const b64 = (text: string) => Buffer.from(text).toString('base64');
mkdirSync(join(dir, 'pki'));
writeFileSync(join(dir, 'pki', 'ca.crt'), pem('CA FILE'));
writeFileSync(join(dir, 'pki', 'client.crt'), pem('CERT FILE'));
writeFileSync(join(dir, 'pki', 'client.key'), pem('KEY FILE'));
writeFileSync(join(dir, 'token'), 'token-from-a-file');

function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown>) {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'other', cluster: { server: 'https://other.example:6443' } },
      { name: 'lk', cluster: { server: 'https://api.example:6443/', ...cluster } },
    ],
    users: [
      { name: 'other', user: { token: 'not-this-one' } },
      { name: 'lk', user },
    ],
    contexts: [
      { name: 'other', context: { cluster: 'other', user: 'other' } },
      { name: 'lk', context: { cluster: 'lk', user: 'lk' } },
    ],
    'current-context': 'lk',
  });
}

const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['a token and an embedded CA', { 'certificate-authority-data': b64(pem('CA')) }, { token: 'abc' }],
  [
    'a client certificate, embedded',
    { 'certificate-authority-data': b64(pem('CA')) },
    { 'client-certificate-data': b64(pem('CERT')), 'client-key-data': b64(pem('KEY')) },
  ],
  [
    'files relative to the kubeconfig',
    { 'certificate-authority': 'pki/ca.crt' },
    { 'client-certificate': 'pki/client.crt', 'client-key': join(dir, 'pki', 'client.key') },
  ],
  ['a token file', { 'certificate-authority': 'pki/ca.crt' }, { 'token-file': join(dir, 'token') }],
  ['TLS verification skipped', { 'insecure-skip-tls-verify': true }, { token: 'abc' }],
  [
    'plain http with verification skipped',
    { server: 'http://127.0.0.1:8080', 'insecure-skip-tls-verify': true },
    {},
  ],
];

async function withClientNode(text: string, file: string) {
  writeFileSync(file, text);
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kubeConfigCredentials(kc);
}

describe('staticKubeconfigCredentials', () => {
  it.each(cases)('resolves %s as client-node does', async (_, cluster, user) => {
    const file = join(dir, 'config');
    const text = kubeconfig(cluster, user);
    const oracle = await withClientNode(text, file);
    const ours = staticKubeconfigCredentials(text, file);
    expect(ours.server).toBe(oracle.server);
    expect(ours.headers).toEqual(oracle.headers);
    for (const field of ['ca', 'cert', 'key'] as const)
      expect(ours.tls[field]?.toString(), field).toBe(oracle.tls[field]?.toString());
    expect(ours.tls.rejectUnauthorized).toBe(oracle.tls.rejectUnauthorized);
  });

  it('refuses plain http that does not skip verification, as the CLI does', async () => {
    const text = kubeconfig({ server: 'http://127.0.0.1:8080' }, { token: 'abc' });
    await expect(withClientNode(text, join(dir, 'config'))).rejects.toThrow(/plain http/);
    expect(() => staticKubeconfigCredentials(text)).toThrow(/plain http/);
  });

  it.each([
    ['exec', { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'aws' } }],
    ['auth-provider', { 'auth-provider': { name: 'oidc', config: {} } }],
    ['username', { username: 'admin', password: 'secret' }],
    ['as', { token: 'abc', as: 'someone-else' }],
  ])('refuses a user with `%s`, naming it and what to use instead', (field, user) => {
    expect(() => staticKubeconfigCredentials(kubeconfig({}, user), '/k/config')).toThrow(
      expect.objectContaining({
        message: `/k/config: its user's \`${field}\` is not supported by the functions`,
        hint: expect.stringContaining('static credentials'),
      }),
    );
  });

  it('says when there is no current cluster, or the text is not YAML', () => {
    expect(() => staticKubeconfigCredentials('apiVersion: v1\nkind: Config\n')).toThrow(/no current cluster/);
    expect(() => staticKubeconfigCredentials('{ not yaml', '/k/config')).toThrow('cannot read /k/config');
  });
});

describe('clientNodeCredentials', () => {
  it("runs an exec plugin through client-node where node_modules has it (`npm start` on a user's cluster)", async () => {
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: 'from-exec' },
    });
    const text = kubeconfig(
      { 'certificate-authority-data': b64(pem('CA')) },
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: ['-e', `console.log(${JSON.stringify(credential)})`],
          interactiveMode: 'Never',
        },
      },
    );
    expect(() => staticKubeconfigCredentials(text)).toThrow(UnsupportedKubeconfigUser);
    const credentials = await clientNodeCredentials(text);
    expect(credentials?.headers).toEqual({ Authorization: 'Bearer from-exec' });
    expect(credentials?.server).toBe('https://api.example:6443');
  });
});
