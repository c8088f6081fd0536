// Property-based tests of the readers of tenant bytes (packs, deltas, trees, YAML): the same inputs on
// every run, a budget of a few seconds each, and each input ends in a value or a clear Error, soon.
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { expect } from 'vitest';

/** A fixed seed (issue 19), and a time budget: a property stops early, passing, when it is spent. */
export const fuzzParameters = (numRuns: number, budgetMs = 3_000) => ({
  seed: 19,
  numRuns,
  interruptAfterTimeLimit: budgetMs,
  markInterruptAsFailure: false,
});

/** A fuzz test's own timeout: its budget, with room for a busy machine. */
export const FUZZ_TEST_MS = 20_000;

/** Slowest a reader may answer one generated input (a hang shows as the first input to exceed it). */
export const PER_INPUT_MS = 250;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

/**
 * `read`'s outcome on one input: its value, or the Error it threw. Anything thrown that is no Error
 * (a crash of the reader's own logic would be a TypeError, still an Error: see `clear`), or an answer
 * slower than `ms` (default PER_INPUT_MS), fails the property.
 */
export async function outcomeOf<T>(read: () => T | Promise<T>, ms = PER_INPUT_MS): Promise<Outcome<T>> {
  const started = performance.now();
  let result: Outcome<T>;
  try {
    result = { ok: true, value: await read() };
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    result = { ok: false, error: error as Error };
  }
  expect(performance.now() - started).toBeLessThan(ms);
  return result;
}

/** An Error the reader meant: not a TypeError/RangeError of its own code or the runtime's. */
export function expectClear(error: Error, message?: RegExp): void {
  expect(error.constructor.name, error.stack).not.toMatch(/^(TypeError|RangeError|ReferenceError)$/);
  if (message) expect(error.message).toMatch(message);
}

/** Runs a property and fails when the process' peak RSS grew by more than `mib` meanwhile. */
export async function withinMemory(mib: number, run: () => Promise<void> | void): Promise<void> {
  const peakBefore = process.resourceUsage().maxRSS;
  await run();
  const grewMiB = (process.resourceUsage().maxRSS - peakBefore) / 1024;
  expect(grewMiB).toBeLessThan(mib);
}

export { fc };
