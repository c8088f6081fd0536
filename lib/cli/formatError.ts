import { inspect } from 'node:util';
import { CommanderError } from 'commander';
import { type ErrorCode, isInfrastructureError, isLightkeeperError } from '../errors';

/** The CLI's exit codes (documented in docs/tenancy-and-safety.md, "Faults end in a report"). */
export const exitCodes = {
  ok: 0,
  /** The reconcile (or replay) ran and failed, or anything not listed below. */
  failed: 1,
  /** Bad arguments or configuration: nothing was attempted. */
  usage: 2,
  /** The Kubernetes API server could not be reached, or failed (5xx) past the retries. */
  unreachable: 3,
} as const;

export function exitCodeFor(e: unknown): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
  if (isInfrastructureError(e)) return exitCodes.unreachable;
  if (isLightkeeperError(e) && e.code === 'ConfigError') return exitCodes.usage;
  return exitCodes.failed;
}

/** What to do about an error, when its message alone does not say. */
const hints: Partial<Record<ErrorCode, string>> = {
  ApiUnreachableError:
    'check that the API server is up and that KUBECONFIG names it (the local one: `lightkeeper cluster status`)',
  InvokeError:
    'check --function, --region and the AWS credentials, or pass --endpoint for serverless-offline',
};

const messageOf = (e: unknown) =>
  e instanceof Error ? (isLightkeeperError(e) ? e.message : `${e.name}: ${e.message}`) : String(e);

/**
 * One or two lines for an error that ends a command: what is wrong (with the causes the
 * message does not already contain), then what to do. The stack only with `debug`.
 */
export function formatError(e: unknown, options: { debug?: boolean } = {}): string {
  if (options.debug) return `lightkeeper: ${inspect(e, { depth: 6 })}`;
  let first = messageOf(e);
  // An ApiUnreachableError's message already says what its cause (undici's error) was.
  let cause = isLightkeeperError(e) && e.code === 'ApiUnreachableError' ? undefined : (e as Error)?.cause;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    const text = messageOf(cause).split('\n')[0];
    if (text && !first.includes((cause as Error)?.message ?? text)) first += `: ${text}`;
    cause = (cause as Error)?.cause;
  }
  const lines = [`lightkeeper: ${first}`];
  const hint = isLightkeeperError(e)
    ? (e.hint ?? hints[e.code])
    : 'run again with --debug for the stack trace';
  if (hint) lines.push(`  ${hint}`);
  return lines.join('\n');
}
