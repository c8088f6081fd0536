import type { JsonValue } from './KubeObject';

/** A path into a document: map keys and sequence indexes. */
export type ValuePath = ReadonlyArray<string | number>;

/** One document of a file, already plain JSON, or the reason it could not be read. */
export type SourceDocument =
  | {
      ok: true;
      value: JsonValue;
      line: number;
      /** 1-based line of the value at `path` (of its key, for a map member); the nearest known line otherwise. */
      lineOf: (path: ValuePath) => number;
    }
  | { ok: false; reason: string; line: number | undefined };
