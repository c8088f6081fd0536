import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLightkeeperError } from '../errors';
import { helmBinary } from '../helm/helmBinary';
import { trackClient } from '../identity/trackIdentity';
import type { KubeClient } from '../kube/kubeClient';
import { formatRef, type Manifest } from '../manifests';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { defaultSourceLimits } from '../settings/sourceLimits';
import { ciphertextLeft } from '../sops/ciphertextLeft';
import { decryptedManifests } from '../sops/decryptedManifests';
import { type DecryptionKeys, runDecrypt } from '../sops/runDecrypt';
import { encryptedParts, namesKmsKey } from '../sops/sopsDocuments';
import { readDecryptionKeys } from '../track/readDecryptionKeys';
import type { TrackObject } from '../track/trackObject';

export interface DecryptSourceOptions {
  client: KubeClient;
  config: DeploymentConfig;
  track: TrackObject;
}

/**
 * The commit's SOPS documents decrypted with the track's keys (spec.decryption), read as the track,
 * in one engine run, in memory. Any part that cannot be decrypted (no spec.decryption, no key
 * Secret, no matching key, a MAC mismatch) is an error of the commit, which is then broken:
 * nothing is applied or pruned, and ciphertext is never applied in its place.
 */
export async function decryptSource(
  manifests: Manifest[],
  options: DecryptSourceOptions,
): Promise<{ manifests: Manifest[]; errors: string[] }> {
  const { documents, targets } = encryptedParts(manifests);
  if (documents.length === 0) return withoutCiphertext(manifests, []);
  const { track, config } = options;
  const encrypted = new Set(targets.map((t) => t.manifest));
  // Whatever fails, no object that holds ciphertext goes on.
  const plain = manifests.filter((_, i) => !encrypted.has(i));
  if (track.spec.decryption === undefined) {
    const objects = [...encrypted].map((i) => manifests[i] as Manifest);
    return withoutCiphertext(
      plain,
      objects.map(
        (m) =>
          `${m.source.path}:${m.source.line} (${formatRef(m.ref)}): encrypted with SOPS, and the track has no spec.decryption: it is not applied`,
      ),
    );
  }
  const failed = (error: string) => withoutCiphertext(plain, [error]);
  const limits = config.sourceLimits ?? defaultSourceLimits;
  let keys: Awaited<ReturnType<typeof readDecryptionKeys>>;
  let binary: string;
  try {
    keys = await readDecryptionKeys(
      trackClient(options.client, track, config),
      track,
      config.kms,
      documents.some(namesKmsKey),
    );
    binary = await helmBinary(limits.kustomizeBin);
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return failed(`decrypting the commit's SOPS documents: ${e.message}`);
  }
  const scratch = await mkdtemp(join(tmpdir(), 'lightkeeper-sops-'));
  try {
    const outcome = await runDecrypt({ binary, keys, documents, limits: limits.render, tmpDir: scratch });
    if (!outcome.ok) return failed(`decrypting the commit's SOPS documents: ${outcome.message}`);
    const decrypted = decryptedManifests(manifests, targets, outcome.answers);
    return withoutCiphertext(
      decrypted.manifests,
      decrypted.errors.map((e) => e.message),
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Every object still holding a SOPS value is an error and left out (ciphertextLeft). */
export function withoutCiphertext(
  manifests: Manifest[],
  errors: string[],
): { manifests: Manifest[]; errors: string[] } {
  const left = ciphertextLeft(manifests);
  if (left.length === 0) return { manifests, errors };
  return { manifests: [], errors: [...errors, ...left.map((e) => e.message)] };
}

/**
 * The keys a render decrypts with (a chart's values files, a kustomization's files): none without
 * spec.decryption, else the track's Secret read as the track (an unreadable one is the commit's error).
 */
export async function decryptionKeys(
  client: KubeClient,
  config: DeploymentConfig,
  track: TrackObject,
): Promise<{ keys: DecryptionKeys | undefined } | { error: string }> {
  if (track.spec.decryption === undefined) return { keys: undefined };
  try {
    return { keys: await readDecryptionKeys(trackClient(client, track, config), track, config.kms) };
  } catch (e) {
    if (!isLightkeeperError(e)) throw e;
    return { error: `decrypting the commit's SOPS files: ${e.message}` };
  }
}
