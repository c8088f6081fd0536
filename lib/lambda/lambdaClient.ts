import {
  InvokeCommand,
  type InvokeCommandInput,
  type InvokeCommandOutput,
  LambdaClient,
} from '@aws-sdk/client-lambda';

export interface LambdaClientOptions {
  /** A Lambda-compatible endpoint, e.g. serverless-offline's `http://127.0.0.1:3002`. */
  endpoint?: string | undefined;
  region?: string | undefined;
}

// A local endpoint does not check signatures, but the SDK will not sign without credentials.
const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A Lambda client; against a custom endpoint it works without AWS credentials in the environment. */
export function createLambdaClient(options: LambdaClientOptions = {}, env = process.env): LambdaClient {
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  if (!options.endpoint) return new LambdaClient({ region });
  const credentials = env.AWS_ACCESS_KEY_ID ? undefined : localCredentials;
  return new LambdaClient({ region, endpoint: options.endpoint, ...(credentials ? { credentials } : {}) });
}

/** One Invoke (the functions load this file when they first invoke: lib/lambda/lazyLambdaClient.ts). */
export const invokeFunction = (
  client: LambdaClient,
  input: InvokeCommandInput,
): Promise<InvokeCommandOutput> => client.send(new InvokeCommand(input));
