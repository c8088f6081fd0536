import { type Document, LineCounter, type Node, parseAllDocuments, type YAMLError } from 'yaml';
import { lineLocator } from './lineLocator';
import type { SourceDocument } from './SourceDocument';
import {
  AliasCountError,
  type YamlToJsonOptions,
  YamlValueError,
  yamlKeyText,
  yamlToJson,
} from './yamlToJson';

/** Values that aliases may add beyond the size of the file itself (see yamlToJson). */
const ALIAS_EXPANSION_ALLOWANCE = 100_000;

/**
 * Splits a YAML stream into documents of plain JSON, read as kubectl reads them: YAML 1.1 through
 * go-yaml v2 and sigs.k8s.io/yaml (see yamlToJson), so `0644` is 420, `yes`/`on` are booleans,
 * `1_000` is 1000, timestamps stay text, `<<` merges apply. Empty and `null` documents are skipped.
 */
export function readYamlDocuments(text: string, options: { maxAliasCount: number }): SourceDocument[] {
  const separator = badSeparator(text);
  if (separator) return [separator];
  const lineCounter = new LineCounter();
  // The failsafe schema keeps every scalar as text; yamlToJson resolves it as go-yaml does.
  const documents = parseAllDocuments(text, {
    lineCounter,
    version: '1.1',
    schema: 'failsafe',
    resolveKnownTags: false,
    uniqueKeys: false,
    logLevel: 'error',
  });
  const maxNodes = text.length + ALIAS_EXPANSION_ALLOWANCE;
  const out: SourceDocument[] = [];
  for (const document of documents) {
    const read = readDocument(document, lineCounter, {
      source: text,
      maxAliasCount: options.maxAliasCount,
      maxNodes,
    });
    if (read) out.push(read);
  }
  return out;
}

function readDocument(
  document: Document.Parsed,
  lineCounter: LineCounter,
  options: YamlToJsonOptions,
): SourceDocument | undefined {
  const { maxAliasCount } = options;
  const line = lineCounter.linePos(document.contents?.range[0] ?? document.range[0]).line;
  const [syntaxError] = document.errors;
  if (syntaxError) return syntaxFailure(syntaxError, lineCounter, document.errors.length);
  if (document.contents === null) return undefined;

  let value: ReturnType<typeof yamlToJson>;
  try {
    value = yamlToJson(document, options);
  } catch (error) {
    if (error instanceof AliasCountError) {
      const reason = `YAML aliases expand too much (over maxAliasCount ${maxAliasCount}); refusing a possible "billion laughs" document`;
      return { ok: false, reason, line };
    }
    if (error instanceof YamlValueError) {
      const at = error.offset === undefined ? line : lineCounter.linePos(error.offset).line;
      return { ok: false, reason: error.message, line: at };
    }
    throw error;
  }
  if (value === null) return undefined;
  const lineOf = lineLocator(document.contents as Node, lineCounter, line, yamlKeyText);
  return { ok: true, value, line, lineOf };
}

/**
 * kubectl splits a stream into documents at lines starting with `---` before parsing them, and
 * refuses a file where such a line goes on with anything but a comment (`--- !!map`, `--- {a: 1}`),
 * which YAML itself allows.
 */
function badSeparator(text: string): SourceDocument | undefined {
  const separators = /^---(.*)$/gm;
  for (let match = separators.exec(text); match; match = separators.exec(text)) {
    const rest = (match[1] ?? '').trim();
    if (rest !== '' && !rest.startsWith('#')) {
      const line = text.slice(0, match.index).split('\n').length;
      const reason = `invalid YAML document separator: "---" followed by ${JSON.stringify(rest)}; kubectl accepts only a comment after it`;
      return { ok: false, reason, line };
    }
  }
  return undefined;
}

function syntaxFailure(error: YAMLError, lineCounter: LineCounter, count: number): SourceDocument {
  const line = error.linePos?.[0].line ?? lineCounter.linePos(error.pos[0]).line;
  // The `yaml` message repeats the position and quotes the source below its first line.
  const message = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const more = count > 1 ? ` (and ${count - 1} more YAML error${count > 2 ? 's' : ''})` : '';
  return { ok: false, reason: `invalid YAML: ${message}${more}`, line };
}
