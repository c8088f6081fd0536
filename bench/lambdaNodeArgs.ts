// Lambda's Node.js runtime does not start Node with its defaults: its bootstrap sizes V8's heap
// from the function's memory (AWS_LAMBDA_FUNCTION_MEMORY_SIZE), a tenth for the young generation
// (half of that per semi-space) and the rest for the old one. The benchmark starts its reconcile
// processes with the same flags, so their peak RSS is the one the deployed function would reach:
// with Node's defaults on this 24 GB machine V8 lets a 50,000-object heap grow far past 1 GB
// before collecting.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The Node arguments Lambda's runtime bootstrap passes for a function of `memoryMb`. */
export function lambdaMemoryArgs(memoryMb: number): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return [`--max-semi-space-size=${Math.floor(newSpace / 2)}`, `--max-old-space-size=${memoryMb - newSpace}`];
}

interface ServerlessMemory {
  provider?: { memorySize?: number };
  functions?: Record<string, { memorySize?: number }>;
}

/** The memory serverless.yml gives `fn` (its own memorySize, else the provider's). */
export function functionMemoryMb(serverlessYml: string, fn: string): number {
  const doc = parse(serverlessYml) as ServerlessMemory;
  const memory = doc.functions?.[fn]?.memorySize ?? doc.provider?.memorySize;
  if (typeof memory !== 'number') throw new Error(`serverless.yml: no memorySize for function ${fn}`);
  return memory;
}

/** Lambda's heap flags for the deployed reconcile function. */
export function reconcileNodeArgs(): string[] {
  const yml = readFileSync(new URL('../serverless.yml', import.meta.url), 'utf8');
  return lambdaMemoryArgs(functionMemoryMb(yml, 'reconcile'));
}
