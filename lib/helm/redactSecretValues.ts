import { parseAllDocuments } from 'yaml';
import type { ValuesContent } from './readValuesFrom';

const shortest = 3;
export const redacted = '<redacted>';

function leaves(node: unknown, into: Set<string>): void {
  if (node === null || node === undefined) return;
  if (typeof node === 'object') {
    for (const v of Object.values(node as Record<string, unknown>)) leaves(v, into);
    return;
  }
  into.add(String(node));
}

/** Every value a Secret of valuesFrom gives (its leaves; a targetPath's whole content), longest first. */
export function secretValues(contents: readonly ValuesContent[]): string[] {
  const found = new Set<string>();
  for (const c of contents) {
    if (!c.secret) continue;
    if (c.targetPath !== undefined) {
      found.add(c.content.trim());
      found.add(c.content.trim().replace(/^(['"])(.*)\1$/s, '$2'));
      continue;
    }
    try {
      for (const doc of parseAllDocuments(c.content)) {
        if ('toJS' in doc) leaves(doc.toJS(), found);
      }
    } catch {
      // Unparsable: the engine refuses it without showing it.
    }
  }
  return [...found].filter((v) => v.length >= shortest).sort((a, b) => b.length - a.length);
}

/**
 * A render's error with every Secret value scrubbed: a chart's `fail`, `required` or schema error
 * can quote the values it was given, and the message goes to the track's status and logs.
 */
export function redactSecretValues(message: string, values: readonly string[]): string {
  let out = message;
  for (const v of values) out = out.replaceAll(v, redacted);
  return out;
}
