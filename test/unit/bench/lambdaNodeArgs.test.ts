import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { functionMemoryMb, lambdaMemoryArgs, reconcileNodeArgs } from '../../../bench/lambdaNodeArgs';

describe('lambdaMemoryArgs', () => {
  it("sizes V8's heap as Lambda's Node bootstrap does", () => {
    expect(lambdaMemoryArgs(1024)).toEqual(['--max-semi-space-size=51', '--max-old-space-size=922']);
    expect(lambdaMemoryArgs(512)).toEqual(['--max-semi-space-size=25', '--max-old-space-size=461']);
  });
});

describe('functionMemoryMb', () => {
  const yml = 'provider:\n  memorySize: 512\nfunctions:\n  reconcile:\n    memorySize: 1024\n  webhook: {}\n';
  it("takes the function's own memory, else the provider's", () => {
    expect(functionMemoryMb(yml, 'reconcile')).toBe(1024);
    expect(functionMemoryMb(yml, 'webhook')).toBe(512);
  });
  it('names the function when no memory is set', () => {
    expect(() => functionMemoryMb('functions:\n  sweep: {}\n', 'sweep')).toThrow(/function sweep/);
  });
  it("reads the reconcile function's memory from the project's serverless.yml", () => {
    const memory = functionMemoryMb(readFileSync('serverless.yml', 'utf8'), 'reconcile');
    expect(reconcileNodeArgs()).toEqual(lambdaMemoryArgs(memory));
  });
});
