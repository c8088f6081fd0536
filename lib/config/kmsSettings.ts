import type { AwsCredentials, KmsAccess } from '../settings/kmsAccess';
import { type Env, readSetting, url } from '../settings/setting';

export const kmsEndpointSettings = [url('AWS_ENDPOINT_URL_KMS'), url('AWS_ENDPOINT_URL')] as const;

/**
 * KMS for SOPS files with the function's own role: its credentials are the AWS SDK's default chain
 * of this process (in Lambda, the execution role's), resolved only when a track decrypts (for
 * objects of plain files, only when a document names a KMS key; for a render, whenever the track
 * decrypts: the engine reads the files) and handed to the decryptor on its stdin, since the engine
 * runs with a scrubbed environment. The SDK loads when first needed: the CLI's start never pays for it.
 */
export function loadKmsAccess(env: Env): KmsAccess {
  const [kmsEndpoint, anyEndpoint] = kmsEndpointSettings;
  let chain: Promise<() => Promise<AwsCredentials>> | undefined;
  return {
    endpoint: readSetting(env, kmsEndpoint) ?? readSetting(env, anyEndpoint),
    functionCredentials: async () => {
      chain ??= import('@aws-sdk/credential-providers').then((sdk) => sdk.fromNodeProviderChain());
      const { accessKeyId, secretAccessKey, sessionToken } = await (await chain)();
      return { accessKeyId, secretAccessKey, sessionToken };
    },
  };
}
