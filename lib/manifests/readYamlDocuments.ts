import { type Document, LineCounter, parseAllDocuments, type YAMLError } from 'yaml';
import { lineLocator } from './lineLocator';
import type { SourceDocument } from './SourceDocument';
import { PlainJsonError, toPlainJson } from './toPlainJson';

/** Values that aliases may add beyond the size of the file itself (see toPlainJson). */
const ALIAS_EXPANSION_ALLOWANCE = 100_000;

/**
 * Splits a YAML stream into documents of plain JSON. Schema: YAML 1.2 core (the `yaml` default), so
 * `on`/`yes`/`no` are strings, `0777` is the integer 777 and `1_000` a string (YAML 1.1 and
 * sigs.k8s.io/yaml would read booleans, octal and 1000); timestamps stay strings. `<<` merge keys are
 * allowed. Duplicate keys are errors. Empty and `null` documents are skipped.
 */
export function readYamlDocuments(text: string, options: { maxAliasCount: number }): SourceDocument[] {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter, merge: true, logLevel: 'error' });
  const maxNodes = text.length + ALIAS_EXPANSION_ALLOWANCE;
  const out: SourceDocument[] = [];
  for (const document of documents) {
    const read = readDocument(document, lineCounter, options.maxAliasCount, maxNodes);
    if (read) out.push(read);
  }
  return out;
}

function readDocument(
  document: Document.Parsed,
  lineCounter: LineCounter,
  maxAliasCount: number,
  maxNodes: number,
): SourceDocument | undefined {
  const line = lineCounter.linePos(document.contents?.range[0] ?? document.range[0]).line;
  const [syntaxError] = document.errors;
  if (syntaxError) return syntaxFailure(syntaxError, lineCounter, document.errors.length);
  if (document.contents === null) return undefined;

  const lineOf = lineLocator(document.contents, lineCounter, line);
  let parsed: unknown;
  try {
    parsed = document.toJS({ maxAliasCount });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = message.startsWith('Excessive alias count')
      ? `YAML aliases expand too much (over maxAliasCount ${maxAliasCount}); refusing a possible "billion laughs" document`
      : `invalid YAML: ${message}`;
    return { ok: false, reason, line };
  }
  if (parsed === null || parsed === undefined) return undefined;
  try {
    return { ok: true, value: toPlainJson(parsed, maxNodes), line, lineOf };
  } catch (error) {
    if (error instanceof PlainJsonError) return { ok: false, reason: error.message, line: lineOf(error.at) };
    throw error;
  }
}

function syntaxFailure(error: YAMLError, lineCounter: LineCounter, count: number): SourceDocument {
  const line = error.linePos?.[0].line ?? lineCounter.linePos(error.pos[0]).line;
  // The `yaml` message repeats the position and quotes the source below its first line.
  const message = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const more = count > 1 ? ` (and ${count - 1} more YAML error${count > 2 ? 's' : ''})` : '';
  return { ok: false, reason: `invalid YAML: ${message}${more}`, line };
}
