import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import type { KmsAccess } from '../../../lib/settings/kmsAccess';
import { namesKmsKey } from '../../../lib/sops/sopsDocuments';
import { readDecryptionKeys } from '../../../lib/track/readDecryptionKeys';
import type { TrackObject } from '../../../lib/track/trackObject';

// Without spec.decryption.secretRef no Secret is read: the client is never used.
const noClient = undefined as unknown as KubeClient;
const track = {
  apiVersion: 'lightkeeper.dev/v1alpha1',
  kind: 'ClusterGitTrack',
  metadata: { name: 'all', uid: 'u' },
  spec: { repository: 'https://git.example/r', reference: 'main', decryption: { provider: 'sops' } },
} as unknown as TrackObject;

describe("readDecryptionKeys: the function's credentials", () => {
  const counted = () => {
    const kms = {
      calls: 0,
      functionCredentials: async () => {
        kms.calls++;
        return { accessKeyId: 'a', secretAccessKey: 's' };
      },
    };
    return kms;
  };

  it('are resolved when a document may need KMS, and left alone when none names a KMS key', async () => {
    const kms = counted();
    expect(await readDecryptionKeys(noClient, track, kms as KmsAccess)).toMatchObject({
      kms: { function: { accessKeyId: 'a' } },
    });
    expect(kms.calls).toBe(1);
    expect(await readDecryptionKeys(noClient, track, kms as KmsAccess, false)).toEqual({ age: [] });
    expect(kms.calls).toBe(1);
  });
});

describe('namesKmsKey', () => {
  const arn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  it("finds a KMS key's ARN in SOPS metadata of any format, and none in an age-only document", () => {
    for (const text of [
      `{"data":"ENC[AES256_GCM,data:x]","sops":{"kms":[{"arn":"${arn}","enc":"e"}]}}`,
      `data=ENC[AES256_GCM,data:x]\nsops_kms__list_0__map_arn=${arn}\n`,
      `[sops]\nkms__list_0__map_arn = ${arn}\n`,
    ])
      expect(namesKmsKey({ data: Buffer.from(text) }), text).toBe(true);
    const ageOnly = '{"data":"ENC[AES256_GCM,data:x]","sops":{"age":[{"recipient":"age1xyz","enc":"e"}]}}';
    expect(namesKmsKey({ data: Buffer.from(ageOnly) })).toBe(false);
  });
});
