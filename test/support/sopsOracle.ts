// The `sops` and `age-keygen` CLIs (built by infra/build-sops-oracle.sh) as the oracle of what a user's
// encrypted files look like: the SOPS tests encrypt their fixtures with them, as a user does.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { cachedBuild } from './cachedBuild';

const run = promisify(execFile);
let building: Promise<string> | undefined;

/** The oracle's sops binary (age-keygen beside it), built (niced) and cached outside the tree when missing. */
export function sopsOracleBinary(): Promise<string> {
  building ??= cachedBuild('build-sops-oracle.sh');
  return building;
}

/** The key Secret a track's `spec.decryption.secretRef` names, holding `key` as Flux's `identity.agekey`. */
export async function createAgeKeySecret(
  client: KubeClient,
  namespace: string,
  key: AgeKey,
  name = 'sops-age',
) {
  await client.request('POST', `/api/v1/namespaces/${namespace}/secrets`, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      data: { 'identity.agekey': Buffer.from(key.keyFile).toString('base64') },
    },
  });
}

/** An age key as `age-keygen` writes it: the key file (what a `.agekey` entry holds) and its recipient. */
export interface AgeKey {
  keyFile: string;
  recipient: string;
}

export async function ageKeygen(): Promise<AgeKey> {
  const keygen = join(dirname(await sopsOracleBinary()), 'age-keygen');
  const { stdout } = await run(keygen, [], { env: { PATH: '' } });
  const recipient = /# public key: (age1\S+)/.exec(stdout)?.[1];
  if (!recipient) throw new Error('age-keygen printed no public key');
  return { keyFile: stdout, recipient };
}

/**
 * `sops --encrypt --age RECIPIENT [--encrypted-regex R] FILE` on `plain` written under `name` (its
 * extension gives the format), in a scratch directory with no .sops.yaml and no key in the
 * environment. Returns the encrypted file's bytes.
 */
export async function sopsEncrypt(
  name: string,
  plain: string,
  recipient: string,
  options: { encryptedRegex?: string } = {},
): Promise<string> {
  const sops = await sopsOracleBinary();
  const dir = await mkdtemp(join(tmpdir(), 'lk-sops-oracle-'));
  try {
    const file = join(dir, name);
    await writeFile(file, plain);
    const regex = options.encryptedRegex === undefined ? [] : ['--encrypted-regex', options.encryptedRegex];
    const { stdout } = await run(sops, ['--encrypt', '--age', recipient, ...regex, file], {
      cwd: dir,
      env: { PATH: '', HOME: dir },
    });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `sops --encrypt --kms ARN [--encryption-context K:V] --encrypted-regex R FILE` against `env`'s AWS
 * (moto: AWS_ENDPOINT_URL_KMS and its test credentials), as a user encrypts for a KMS key.
 */
export async function sopsEncryptKms(
  name: string,
  plain: string,
  kms: { arn: string; context?: string; env: Record<string, string> },
  options: { encryptedRegex?: string } = {},
): Promise<string> {
  const sops = await sopsOracleBinary();
  const dir = await mkdtemp(join(tmpdir(), 'lk-sops-oracle-'));
  try {
    const file = join(dir, name);
    await writeFile(file, plain);
    const regex = options.encryptedRegex === undefined ? [] : ['--encrypted-regex', options.encryptedRegex];
    const context = kms.context === undefined ? [] : ['--encryption-context', kms.context];
    const { stdout } = await run(sops, ['--encrypt', '--kms', kms.arn, ...context, ...regex, file], {
      cwd: dir,
      env: { PATH: '', HOME: dir, ...kms.env },
    });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
