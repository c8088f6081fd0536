import type { InvokeCommandInput, InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { ConfigError, InvokeError } from '../errors';
import type { CoalescedReconcile } from '../lease/coalesced';
import type { ReconcileEvent } from '../reconcile/reconcileEvent';
import type { ReconcileSummary } from '../reconcile/types';
import { trackLabel } from '../track/trackRef';
import { type LambdaClientSource, lambdaClientOf } from './lazyLambdaClient';

const encode = (event: ReconcileEvent) => new TextEncoder().encode(JSON.stringify(event));

/** The Invoke command, loaded with the client (lib/lambda/lazyLambdaClient.ts says why). */
async function invoke(source: LambdaClientSource, input: InvokeCommandInput): Promise<InvokeCommandOutput> {
  const [client, { invokeFunction }] = await Promise.all([lambdaClientOf(source), import('./lambdaClient')]);
  return invokeFunction(client, input);
}

/** Queues a reconcile (`InvocationType: Event`) and returns as soon as Lambda accepted it. */
export async function startReconcile(
  client: LambdaClientSource,
  functionName: string,
  event: ReconcileEvent,
): Promise<void> {
  try {
    const out = await invoke(client, {
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: encode(event),
    });
    if (out.StatusCode !== 202) throw new Error(`Lambda answered ${out.StatusCode} instead of 202`);
  } catch (cause) {
    throw invokeFailure(
      `could not start the reconcile of ${trackLabel(event.track)} on ${functionName}`,
      trackLabel(event.track),
      cause,
    );
  }
}

/**
 * Runs a reconcile (`RequestResponse`) and returns its summary, or `coalesced` when the track was
 * running and already waited on (a request for the head only); a function error becomes an InvokeError.
 */
export async function runReconcile(
  client: LambdaClientSource,
  functionName: string,
  event: ReconcileEvent,
): Promise<ReconcileSummary | CoalescedReconcile> {
  const subject = trackLabel(event.track);
  let out: InvokeCommandOutput;
  try {
    out = await invoke(client, {
      FunctionName: functionName,
      InvocationType: 'RequestResponse',
      Payload: encode(event),
    });
  } catch (cause) {
    throw invokeFailure(`could not invoke ${functionName} for ${subject}`, subject, cause);
  }
  const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    payload = text;
  }
  if (out.FunctionError) {
    const message = (payload as { errorMessage?: string } | undefined)?.errorMessage ?? text;
    throw new InvokeError(`${functionName} failed for ${subject} (${out.FunctionError}): ${message}`, {
      subject,
    });
  }
  if (!payload || typeof payload !== 'object') {
    throw new InvokeError(`${functionName} returned no summary for ${subject}`, { subject });
  }
  return payload as ReconcileSummary | CoalescedReconcile;
}

/** The SDK found no AWS credentials: a configuration problem, said with the fix; else InvokeError. */
function invokeFailure(message: string, subject: string, cause: unknown) {
  if ((cause as Error | undefined)?.name === 'CredentialsProviderError') {
    return new ConfigError(`${message}: no AWS credentials`, {
      subject,
      cause,
      hint: 'set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; or pass --endpoint for serverless-offline',
    });
  }
  return new InvokeError(message, { subject, cause });
}
