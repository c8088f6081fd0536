import { LineCounter, parseDocument } from 'yaml';
import type { JsonValue } from './KubeObject';
import { lineLocator } from './lineLocator';
import type { SourceDocument, ValuePath } from './SourceDocument';

/**
 * Reads a JSON file with `JSON.parse` (strict JSON decides validity). Lines are only needed for list
 * items and refusals, so the file is parsed a second time, lazily, by `yaml`'s JSON schema to find them.
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
  return { ok: true, value, line, lineOf };
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
