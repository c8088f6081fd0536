import { LineCounter, parseDocument } from 'yaml';
import type { JsonValue } from './KubeObject';
import { lineLocator } from './lineLocator';
import type { SourceDocument, ValuePath } from './SourceDocument';

/**
 * Reads a JSON file with `JSON.parse` (strict JSON decides validity; a file with an integer beyond
 * 2^53 is read again to keep it exact). Lines are only needed for list items and refusals, so the
 * file is parsed a second time, lazily, by `yaml`'s JSON schema to find them.
 */
export function readJsonDocument(text: string): SourceDocument {
  let value: JsonValue;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `invalid JSON: ${message}`, line: jsonErrorLine(text, message) };
  }
  const line = lineAtOffset(text, text.search(/\S/));
  let locate: ((path: ValuePath) => number) | undefined;
  const lineOf = (path: ValuePath): number => {
    if (!locate) {
      const lineCounter = new LineCounter();
      const document = parseDocument(text, { lineCounter, schema: 'json', logLevel: 'error' });
      locate = lineLocator(document.contents, lineCounter, line);
    }
    return locate(path);
  };
  // JSON.parse reads 1e400 as Infinity, which no JSON can carry (kubectl refuses such a file).
  const infinite = pathOfNumber(value, (n) => !Number.isFinite(n));
  if (infinite) return { ok: false, reason: 'invalid JSON: a number beyond float64', line: lineOf(infinite) };
  if (pathOfNumber(value, (n) => Number.isInteger(n) && !Number.isSafeInteger(n))) value = exactNumbers(text);
  return { ok: true, value, line, lineOf };
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** The path of the first number that passes `test`, if any. */
function pathOfNumber(v: JsonValue, test: (n: number) => boolean): ValuePath | undefined {
  if (typeof v === 'number') return test(v) ? [] : undefined;
  if (v === null || typeof v !== 'object') return undefined;
  for (const [key, item] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
    const at = pathOfNumber(item, test);
    if (at) return [key, ...at];
  }
  return undefined;
}

/**
 * The file read again keeping integer literals exact, as kubectl reads JSON: an integer that fits
 * int64 is sent as written (a bigint here beyond 2^53), any other number as a float64.
 */
function exactNumbers(text: string): JsonValue {
  const exact = (v: unknown): JsonValue => {
    if (typeof v === 'bigint') {
      if (v < int64Min || v > int64Max) return Number(v);
      return Number.isSafeInteger(Number(v)) ? Number(v) : v;
    }
    if (v === null || typeof v !== 'object') return v as JsonValue;
    if (Array.isArray(v)) return v.map(exact);
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, exact(item)]));
  };
  const options = { schema: 'json', intAsBigInt: true, uniqueKeys: false, logLevel: 'error' } as const;
  return exact(parseDocument(text, options).toJS());
}

function jsonErrorLine(text: string, message: string): number | undefined {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return lineAtOffset(text, Number(position));
  const lineCounter = new LineCounter();
  const [error] = parseDocument(text, { lineCounter, schema: 'json', logLevel: 'error' }).errors;
  return error?.linePos?.[0].line;
}

const lineAtOffset = (text: string, offset: number): number => {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};
