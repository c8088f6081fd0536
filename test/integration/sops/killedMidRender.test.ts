import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createKmsKey, type KmsWitness, kmsWitness } from '../../support/motoKms';
import { type MotoServer, startMoto } from '../../support/motoServer';
import { ageKeygen, createAgeKeySecret, sopsEncrypt, sopsEncryptKms } from '../../support/sopsOracle';

// The render engine SIGKILLed while it renders a kustomization whose SOPS files it decrypts: one
// file decrypted (age) in its memory, the next waiting on KMS (a proxy that never answers). Every
// scratch directory lightkeeper made (TMPDIR points at a fresh root for the run) holds no plaintext
// nor its base64, while the engine waits and after it was killed; the run fails and applies nothing.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

let moto: MotoServer;
let stalling: KmsWitness;
let arn: string;
let root: string;
const previousTmp = process.env.TMPDIR;
beforeAll(async () => {
  moto = await startMoto();
  stalling = await kmsWitness(moto, { hold: true });
  arn = await createKmsKey(moto);
  root = await mkdtemp(join(tmpdir(), 'lk-killed-render-'));
}, 120_000);
afterAll(async () => {
  process.env.TMPDIR = previousTmp;
  await stalling?.close();
  await moto?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const plaintexts = ['age-plain-killed-4d1f', 'kms-plain-killed-8a2c', 'env-plain-killed-6b3e'] as const;
const forbidden = plaintexts.flatMap((p) => [p, Buffer.from(p).toString('base64')]);

/** Every file under `dir`, as latin1 text, with its path. */
async function filesUnder(dir: string): Promise<Array<[string, string]>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const out: Array<[string, string]> = [];
  for (const entry of entries)
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.push([path, await readFile(path, 'latin1').catch(() => '')]);
    }
  return out;
}

/** The helm-render this process started, from /proc (its parent is this process). */
async function engineChild(): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (m?.[1] === 'helm-render' && Number(m[2]) === process.pid) return Number(entry);
  }
  return undefined;
}

const expectNoPlaintext = (files: Array<[string, string]>, when: string) => {
  for (const [path, text] of files)
    for (const value of forbidden)
      expect(text.includes(value), `${when}: ${path} holds ${value}`).toBe(false);
};

describe('the engine killed mid-render', () => {
  it('leaves no plaintext on disk, and the run applies nothing', async () => {
    const key = await ageKeygen();
    const ns = await freshNamespace(client, 'sops-killed');
    await createAgeKeySecret(client, ns, key);
    const regex = { encryptedRegex: '^(data|stringData)$' };
    const sopsEnv = { ...moto.env, AWS_ENDPOINT_URL_KMS: moto.endpoint };
    const repo = createRepo(server, uniqueName('sops-killed'));
    commit(
      repo,
      {
        'app/kustomization.yaml': [
          'resources: [age.yaml, kms.yaml]',
          'secretGenerator:',
          '  - name: app-env',
          '    envs: [secret.env]',
          '',
        ].join('\n'),
        'app/age.yaml': await sopsEncrypt(
          'age.yaml',
          yamlOf(configMap('age', { token: plaintexts[0] })),
          key.recipient,
          regex,
        ),
        'app/kms.yaml': await sopsEncryptKms(
          'kms.yaml',
          yamlOf(configMap('kms', { token: plaintexts[1] })),
          { arn, context: `lightkeeper.dev/namespace:${ns}`, env: sopsEnv },
          regex,
        ),
        'app/secret.env': await sopsEncrypt('secret.env', `TOKEN=${plaintexts[2]}\n`, key.recipient),
      },
      'a kustomization of SOPS files',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
      decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
    });

    process.env.TMPDIR = root;
    const kms = {
      endpoint: stalling.endpoint,
      functionCredentials: async () => ({ accessKeyId: 'function', secretAccessKey: 'function-secret' }),
    };
    const running = e.run(track, {}, { config: { ...includeNamespaced, kms } });
    await stalling.firstDecrypt;
    const pid = await engineChild();
    expect(pid).toBeDefined();
    const waiting = await filesUnder(root);
    // The engine works in a scratch directory of this root: the search looks where it writes.
    expect(waiting.some(([path]) => path.includes('lightkeeper-kustomize-'))).toBe(true);
    expectNoPlaintext(waiting, 'while the engine waits on KMS');
    process.kill(pid as number, 'SIGKILL');
    const summary = await running;
    process.env.TMPDIR = previousTmp;

    expect(summary).toMatchObject({ result: 'Failed', counts: { applied: 0 }, writes: { objects: 0 } });
    expect(summary.errors.join('\n')).toContain('the engine was killed (SIGKILL)');
    expect(await getLive(client, configMaps, 'age', ns)).toBeUndefined();
    expectNoPlaintext(await filesUnder(root), 'after the engine was killed');
    expect(JSON.stringify(summary)).not.toContain(plaintexts[0]);
  });
});
