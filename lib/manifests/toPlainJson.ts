import { isJsonObject, type JsonValue } from './KubeObject';
import type { ValuePath } from './SourceDocument';

export class PlainJsonError extends Error {
  constructor(
    message: string,
    readonly at: ValuePath,
  ) {
    super(message);
  }
}

/**
 * Deep-copies a parsed YAML value into fresh plain JSON. The copy un-shares the objects that aliases
 * point at (so callers may modify their manifests), and `maxNodes` caps how far aliases may multiply
 * the document. `!!binary` becomes its base64 text, which is what Kubernetes expects for byte fields.
 */
export function toPlainJson(value: unknown, maxNodes: number): JsonValue {
  let nodes = 0;
  const ancestors = new Set<object>();
  const path: Array<string | number> = [];

  const fail = (message: string): never => {
    throw new PlainJsonError(message, [...path]);
  };

  const convert = (v: unknown): JsonValue => {
    if (++nodes > maxNodes) fail(`aliases expand the document beyond ${maxNodes} values`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : fail(`${v} is not a JSON number`);
    if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    if (typeof v !== 'object' || !(Array.isArray(v) || isPlainObject(v))) {
      return fail(`unsupported value of type ${describeType(v)}`);
    }
    if (ancestors.has(v)) fail('recursive alias: a value contains itself');
    ancestors.add(v);
    const entries = Array.isArray(v) ? v.entries() : Object.entries(v);
    const out: Array<[string | number, JsonValue]> = [];
    for (const [key, item] of entries) {
      path.push(key);
      out.push([key, convert(item)]);
      path.pop();
    }
    ancestors.delete(v);
    // fromEntries defines own properties, so a `__proto__` key stays data, never a prototype.
    return Array.isArray(v) ? out.map(([, item]) => item) : Object.fromEntries(out);
  };

  return convert(value);
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return isJsonObject(v) && (proto === Object.prototype || proto === null);
};

const describeType = (v: unknown): string =>
  typeof v === 'object' && v !== null ? (v.constructor?.name ?? 'object') : typeof v;
