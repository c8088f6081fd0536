import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { decryptedAnnotation } from '../../../lib/manifests/metadataKeys';
import type { KmsAccess } from '../../../lib/settings/kmsAccess';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  getLive,
  includeNamespaced,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createKmsKey, type KmsWitness, kmsCall, kmsWitness } from '../../support/motoKms';
import { type MotoServer, startMoto } from '../../support/motoServer';
import { sopsEncryptKms } from '../../support/sopsOracle';

// SOPS with AWS KMS against moto's server: the function's role (the reconciler's power) decrypts
// for a ClusterGitTrack whatever the key, and for a GitTrack only files whose every KMS key carries
// the encryption context lightkeeper.dev/namespace: <its namespace>, checked before any KMS call;
// KMS binds the context into the ciphertext, so relabelling another namespace's file fails at KMS.
// A GitTrack with its own credentials (sops.aws-kms) needs no function role at all.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

let moto: MotoServer;
let witness: KmsWitness;
let arn: string;
let sopsEnv: Record<string, string>;
beforeAll(async () => {
  moto = await startMoto();
  witness = await kmsWitness(moto);
  arn = await createKmsKey(moto);
  sopsEnv = { ...moto.env, AWS_ENDPOINT_URL_KMS: moto.endpoint };
}, 120_000);
afterAll(async () => {
  await witness?.close();
  await moto?.stop();
});

const secrets = { apiVersion: 'v1', plural: 'secrets' };
const regex = { encryptedRegex: '^(data|stringData)$' };
const contextKey = 'lightkeeper.dev/namespace';
const functionRole = (): KmsAccess => ({
  endpoint: witness.endpoint,
  functionCredentials: async () => ({ accessKeyId: 'function', secretAccessKey: 'function-secret' }),
});
const asFunction = () => ({ config: { ...includeNamespaced, kms: functionRole() } });

const secretYaml = (name: string, password: string, namespace?: string) =>
  yamlOf({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, stringData: { password } });
const encrypt = (name: string, password: string, context?: string, namespace?: string) =>
  sopsEncryptKms(
    `${name}.yaml`,
    secretYaml(name, password, namespace),
    { arn, context, env: sopsEnv },
    regex,
  );
const passwordOf = async (name: string, ns: string) => {
  const data = (await getLive(client, secrets, name, ns))?.data as Record<string, string> | undefined;
  return data && Buffer.from(data.password as string, 'base64').toString();
};
const parsedMessage = async (track: Parameters<typeof trackStatus>[1]) =>
  (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed')?.message ?? '';

describe("moto's KMS", () => {
  it('refuses a ciphertext under another encryption context (the context is bound into it)', async () => {
    const plain = Buffer.from('data-key').toString('base64');
    const { CiphertextBlob } = await kmsCall(moto, 'Encrypt', {
      KeyId: arn,
      Plaintext: plain,
      EncryptionContext: { [contextKey]: 'team-b' },
    });
    await expect(
      kmsCall(moto, 'Decrypt', { CiphertextBlob, EncryptionContext: { [contextKey]: 'team-a' } }),
    ).rejects.toThrow(/InvalidCiphertextException/);
    expect(
      await kmsCall(moto, 'Decrypt', { CiphertextBlob, EncryptionContext: { [contextKey]: 'team-b' } }),
    ).toMatchObject({ Plaintext: plain });
  });
});

describe('SOPS with AWS KMS', () => {
  it("decrypts a ClusterGitTrack's files with the function's role, whatever their context", async () => {
    const ns = await freshNamespace(client, 'kms-cluster');
    const repo = createRepo(server, uniqueName('kms-cluster'));
    commit(
      repo,
      { 'platform.yaml': await encrypt('platform', 'platform-plain-1', undefined, ns) },
      'platform',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops' },
    });
    const summary = await e.run(track, {}, asFunction());
    expect(summary.errors).toEqual([]);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await passwordOf('platform', ns)).toBe('platform-plain-1');
    const live = await getLive(client, secrets, 'platform', ns);
    expect(live?.metadata.annotations?.[decryptedAnnotation]).toBe('sops');
  });

  it("lets a GitTrack use the function's role only under its namespace's context", async () => {
    const ns = await freshNamespace(client, 'kms-a');
    const other = await freshNamespace(client, 'kms-b');
    const repo = createRepo(server, uniqueName('kms-a'));
    const mine = await encrypt('mine', 'mine-plain-1', `${contextKey}:${ns}`);
    commit(repo, { 'mine.yaml': mine, 'keep.yaml': yamlOf(configMap('keep')) }, 'under my context');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops' },
    });
    const applied = await e.run(track, {}, asFunction());
    expect(applied.errors).toEqual([]);
    expect(applied).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
    expect(await passwordOf('mine', ns)).toBe('mine-plain-1');
    expect(witness.decrypts).toContainEqual({ [contextKey]: ns });

    const brokenBy = async (file: string, text: string, reason: string) => {
      const before = witness.decrypts.length;
      commit(repo, { [`${file}.yaml`]: text, 'keep.yaml': null }, `${file}, keep.yaml removed`);
      const broken = await e.run(track, {}, asFunction());
      expect(broken).toMatchObject({
        result: 'Failed',
        deployed: { extent: 'broken' },
        counts: { applied: 0, pruned: 0 },
      });
      expect(await getLive(client, secrets, file, ns)).toBeUndefined();
      expect(await getLive(client, configMaps, 'keep', ns)).toBeDefined(); // nothing pruned
      expect(await passwordOf('mine', ns)).toBe('mine-plain-1');
      expect(await parsedMessage(track)).toContain(
        `${file}.yaml:1 (Secret/${file}): cannot decrypt: ${reason}`,
      );
      commit(repo, { [`${file}.yaml`]: null, 'keep.yaml': yamlOf(configMap('keep')) }, `${file} reverted`);
      return witness.decrypts.slice(before);
    };

    // The platform's ciphertext (no context): refused before KMS is asked.
    const platform = await brokenBy('platform', await encrypt('platform', 'platform-plain-2'), 'KMS key');
    expect(await parsedMessage(track)).toContain(`has no encryption context ${contextKey}`);
    expect(platform.filter((c) => c[contextKey] !== ns)).toEqual([]);

    // Another namespace's ciphertext: refused before KMS is asked.
    const theirs = await encrypt('theirs', 'theirs-plain-1', `${contextKey}:${other}`);
    const asked = await brokenBy('theirs', theirs, 'KMS key');
    expect(await parsedMessage(track)).toContain(`"${other}", not this track's namespace "${ns}"`);
    expect(asked.filter((c) => c[contextKey] !== ns)).toEqual([]);

    // Their ciphertext relabelled with my namespace: KMS itself refuses it (the context is its AAD).
    const relabelled = theirs.replaceAll(`${contextKey}: ${other}`, `${contextKey}: ${ns}`);
    expect(relabelled).not.toBe(theirs);
    const refused = await brokenBy('theirs', relabelled, 'no matching key');
    expect(refused.length).toBeGreaterThan(1); // the relabelled one was asked, and KMS said no

    const applied2 = await e.run(track, {}, asFunction());
    expect(applied2).toMatchObject({ result: 'Succeeded' });
  });

  it("decrypts with the GitTrack's own credentials (sops.aws-kms) and no function role", async () => {
    const ns = await freshNamespace(client, 'kms-own');
    await client.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'sops-kms' },
        stringData: {
          'sops.aws-kms':
            'aws_access_key_id: tenant\naws_secret_access_key: tenant-secret\naws_session_token: t\n',
        },
      },
    });
    const repo = createRepo(server, uniqueName('kms-own'));
    commit(repo, { 'own.yaml': await encrypt('own', 'own-plain-1') }, "no context: the tenant's own key");
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops', secretRef: { name: 'sops-kms' } },
    });
    const noRole = { config: { ...includeNamespaced, kms: { endpoint: witness.endpoint } } };
    const summary = await e.run(track, {}, noRole);
    expect(summary.errors).toEqual([]);
    expect(summary).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect(await passwordOf('own', ns)).toBe('own-plain-1');
  });
});
