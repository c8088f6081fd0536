import { type Alias, type Document, isAlias, isMap, isScalar, isSeq, type Node, Scalar, visit } from 'yaml';
import { goFloatKey } from './goFloatKey';
import { type GoScalar, GoScalarError, resolveGoScalar } from './goYamlScalar';
import type { JsonObject, JsonValue } from './KubeObject';

/** A value kubectl could not send either; `offset` is where it is written. */
export class YamlValueError extends Error {
  constructor(
    message: string,
    readonly offset: number | undefined,
  ) {
    super(message);
  }
}

/** The document's aliases would expand beyond `maxAliasCount` (yaml's own "billion laughs" rule). */
export class AliasCountError extends Error {}

export type YamlToJsonOptions = {
  /** The text the document was parsed from. */
  source: string;
  /** As `yaml`'s `toJS({ maxAliasCount })`: each alias use weighted by the aliases nested in it. */
  maxAliasCount: number;
  /** Values the whole document may produce, aliases copied included. */
  maxNodes: number;
};

type AnchorData = { count: number; aliasCount: number; value?: JsonValue };

const MERGE = 'tag:yaml.org,2002:merge';
const wantMap = 'map merge requires map or sequence of maps as the value';

/**
 * A parsed YAML document (read with the failsafe schema, so every scalar is still its text) as the
 * JSON sigs.k8s.io/yaml makes of it for kubectl: go-yaml v2's YAML 1.1 scalars (see goYamlScalar),
 * `<<` merges applied in document order (a later key, merged or not, replaces an earlier one), keys
 * written as Go writes them, each alias a fresh copy. One difference: a key written twice in one
 * mapping is refused (go-yaml keeps the last) — it is almost always a mistake.
 */
export function yamlToJson(document: Document.Parsed, limits: YamlToJsonOptions): JsonValue {
  const targets = aliasTargets(document);
  const anchors = new Map<Node, AnchorData>();
  const converting = new Set<Node>();
  let nodes = 0;

  const spend = (at: Node) => {
    if (++nodes > limits.maxNodes)
      throw new YamlValueError(`aliases expand the document beyond ${limits.maxNodes} values`, offsetOf(at));
  };

  const target = (alias: Alias): Node => {
    const node = targets.get(alias);
    if (!node) throw new YamlValueError(`unknown anchor '${alias.source}' referenced`, offsetOf(alias));
    if (converting.has(node))
      throw new YamlValueError('recursive alias: a value contains itself', offsetOf(alias));
    return node;
  };

  const useAlias = (alias: Alias): JsonValue => {
    const node = target(alias);
    if (!anchors.has(node)) value(node);
    const data = anchors.get(node)!;
    if (limits.maxAliasCount >= 0) {
      data.count += 1;
      if (data.aliasCount === 0) data.aliasCount = aliasCount(node);
      if (data.count * data.aliasCount > limits.maxAliasCount) throw new AliasCountError();
    }
    return copy(data.value ?? null, alias);
  };

  const aliasCount = (node: unknown): number => {
    if (isAlias(node)) {
      const data = anchors.get(targets.get(node) as Node);
      return data ? data.count * data.aliasCount : 0;
    }
    let count = 0;
    if (isMap(node))
      for (const p of node.items) count = Math.max(count, aliasCount(p.key), aliasCount(p.value));
    else if (isSeq(node)) for (const item of node.items) count = Math.max(count, aliasCount(item));
    else return 1;
    return count;
  };

  const copy = (v: JsonValue, at: Node): JsonValue => {
    spend(at);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((item) => copy(item, at));
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, copy(item, at)]));
  };

  const value = (node: unknown): JsonValue => {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return useAlias(node);
    const n = node as Node;
    const anchored: AnchorData | undefined = n.anchor ? { count: 1, aliasCount: 0 } : undefined;
    if (anchored) {
      anchors.set(n, anchored);
      converting.add(n);
    }
    spend(n);
    let result: JsonValue;
    if (isScalar(n)) result = scalarValue(scalarOf(n, limits.source), n);
    else if (isMap(n)) result = mapValue(n.items);
    else if (isSeq(n)) result = n.items.map(value);
    else throw new YamlValueError('unsupported YAML node', offsetOf(n));
    if (anchored) {
      anchored.value = result;
      converting.delete(n);
    }
    return result;
  };

  const mapValue = (pairs: ReadonlyArray<{ key: unknown; value: unknown }>): JsonObject => {
    const out = new Map<string, JsonValue>();
    const written = new Set<string>();
    for (const pair of pairs) {
      if (isMergeKey(pair.key)) {
        merge(out, pair.value, pair.key);
        continue;
      }
      const key = keyOf(pair.key);
      if (written.has(key))
        throw new YamlValueError('invalid YAML: Map keys must be unique', offsetOf(pair.key));
      written.add(key);
      out.set(key, value(pair.value));
    }
    // fromEntries defines own properties, so a `__proto__` key stays data, never a prototype.
    return Object.fromEntries(out);
  };

  const mergeable = (node: unknown) => isMap(node) || (isAlias(node) && isMap(target(node)));

  const merge = (out: Map<string, JsonValue>, source: unknown, key: Scalar) => {
    const sources = isSeq(source) ? source.items : [source];
    if (!sources.every(mergeable)) throw new YamlValueError(wantMap, offsetOf(key));
    const values = sources.map(value) as JsonObject[];
    // Earlier maps of a sequence take precedence, so they are merged last.
    for (const merged of values.reverse()) for (const [k, v] of Object.entries(merged)) out.set(k, v);
  };

  const keyOf = (node: unknown): string => {
    if (isAlias(node)) {
      useAlias(node);
      return keyOf(target(node));
    }
    if (!isScalar(node)) {
      const what = node === null || node === undefined ? 'an empty key' : 'a mapping or sequence as key';
      throw new YamlValueError(`invalid map key: ${what}`, offsetOf(node));
    }
    const text = goKeyText(scalarOf(node, limits.source));
    if (text === undefined) throw new YamlValueError(`unsupported map key ${node.source}`, offsetOf(node));
    return text;
  };

  return value(document.contents);
}

/** A scalar key as sigs.k8s.io/yaml writes it; undefined for keys it refuses (null, beyond int64). */
function goKeyText(s: GoScalar): string | undefined {
  switch (s.type) {
    case 'str':
      return s.value;
    case 'bool':
      return String(s.value);
    case 'float':
      return goFloatKey(s.value);
    case 'int':
      return s.width === 'int64' ? s.value.toString() : undefined;
    case 'null':
      return undefined;
  }
}

/** The text a scalar key has in the JSON (for finding lines); undefined where the key is refused. */
export function yamlKeyText(key: Scalar): string | undefined {
  try {
    return goKeyText(scalarOf(key));
  } catch {
    return undefined;
  }
}

const scalarOf = (node: Scalar, file?: string): GoScalar => {
  const text = typeof node.source === 'string' ? node.source : String(node.value ?? '');
  const plain = node.type === undefined || node.type === Scalar.PLAIN;
  // YAML 1.2 added the `\/` escape; go-yaml (YAML 1.1) refuses it, and `yaml` accepts it even in 1.1.
  if (file !== undefined && node.type === Scalar.QUOTE_DOUBLE && node.range) {
    const raw = file.slice(node.range[0], node.range[1]);
    if (raw.includes('\\/') && /^(?:[^\\]|\\[^/])*\\\//.test(raw.slice(1)))
      throw new YamlValueError(
        'found unknown escape character \\/ (YAML 1.1 has no such escape)',
        offsetOf(node),
      );
  }
  try {
    return resolveGoScalar(node.tag, text, plain ? 'plain' : 'quoted');
  } catch (error) {
    if (error instanceof GoScalarError) throw new YamlValueError(error.message, offsetOf(node));
    throw error;
  }
};

/** JSON of a scalar as kubectl sends it: int64 exactly (a bigint beyond 2^53), other integers as float64. */
function scalarValue(s: GoScalar, node: Node): JsonValue {
  switch (s.type) {
    case 'null':
      return null;
    case 'bool':
    case 'str':
      return s.value;
    case 'int': {
      if (s.width === 'int64') return Number.isSafeInteger(Number(s.value)) ? Number(s.value) : s.value;
      return finite(Number(s.value), node);
    }
    case 'float':
      return finite(s.value, node);
  }
}

const finite = (n: number, node: Node): number => {
  if (Number.isFinite(n)) return n;
  throw new YamlValueError(`${n} is not a JSON number`, offsetOf(node));
};

/** go-yaml's isMerge: a `<<` key, plain or tagged !!merge. */
const isMergeKey = (key: unknown): key is Scalar =>
  isScalar(key) &&
  key.source === '<<' &&
  (key.tag === MERGE || ((key.tag === undefined || key.tag === '!') && key.type === Scalar.PLAIN));

const offsetOf = (node: unknown): number | undefined =>
  (node as Node | null | undefined)?.range?.[0] ?? undefined;

/** Each alias's anchor: the last node with that anchor before it, in document order (as go-yaml). */
function aliasTargets(document: Document.Parsed): Map<Alias, Node> {
  const byName = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  visit(document, {
    Node: (_, node) => {
      if (isAlias(node)) {
        const found = byName.get(node.source);
        if (found) targets.set(node, found);
      } else if (node.anchor) {
        byName.set(node.anchor, node);
      }
    },
  });
  return targets;
}
