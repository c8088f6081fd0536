import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { LambdaClientOptions } from './lambdaClient';

/**
 * A Lambda client, or how to make one at its first use. A function starts with the second: the
 * Lambda client is a sixth of a function's bundle and most reconciles never invoke another run, so
 * it is parsed and run only by an invocation that does (bench/coldStart.ts measures the import).
 */
export type LambdaClientSource = LambdaClient | (() => Promise<LambdaClient>);

/** One client per container, made when it is first asked for. */
export function lazyLambdaClient(options: LambdaClientOptions = {}): () => Promise<LambdaClient> {
  let client: Promise<LambdaClient> | undefined;
  return () => {
    client ??= import('./lambdaClient').then(({ createLambdaClient }) => createLambdaClient(options));
    return client;
  };
}

export const lambdaClientOf = async (source: LambdaClientSource): Promise<LambdaClient> =>
  typeof source === 'function' ? source() : source;
