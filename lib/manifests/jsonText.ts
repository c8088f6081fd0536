import { randomUUID } from 'node:crypto';

// A string no manifest can contain: JSON.stringify escapes the NUL, and the UUID is new per process.
const marker = `\u0000bigint-${randomUUID()}:`;
const markerText = new RegExp(
  `"${JSON.stringify(marker).slice(1, -1).replaceAll('\\', '\\\\')}(-?\\d+)"`,
  'g',
);

/**
 * JSON.stringify, except that a bigint (an integer beyond 2^53 read from a manifest) is written as
 * its exact digits, as kubectl sends it. Bodies without a bigint take JSON.stringify's fast path.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${marker}${v}` : v)).replace(
    markerText,
    '$1',
  );
}
