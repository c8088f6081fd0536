import { assert } from 'vitest';

/**
 * `value`, failing the test when it is missing. Compare against `present(before, …).metadata.uid`,
 * never `before?.metadata.uid`: the `?.uid`s of two missing objects are equal, so such a
 * comparison passes exactly when it should fail.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  assert.exists(value, `${what} is missing`);
  return value;
}
