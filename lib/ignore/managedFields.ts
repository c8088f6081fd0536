import { fieldManager } from '../kube/serverSideApply';
import { canonicalJson, type JsonValue } from '../manifests';
import { arrayIndex } from './jsonPointer';

/** One entry of `metadata.managedFields`. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: unknown;
}

/** A node of a `fieldsV1` set: `f:name`, `k:{...}`, `v:...`, `i:N` and `.` keys; `{}` is a leaf. */
type FieldsNode = { [key: string]: FieldsNode };

const isNode = (v: unknown): v is FieldsNode => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isOurApply = (e: ManagedFieldsEntry) =>
  e.manager === fieldManager && e.operation === 'Apply' && !e.subresource;

export const managedFieldsOf = (object: unknown): ManagedFieldsEntry[] =>
  (object as { metadata?: { managedFields?: ManagedFieldsEntry[] } }).metadata?.managedFields ?? [];

// canonicalJson, not JSON.stringify: a manifest may hold bigints, and key order must not matter.
const deepEqual = (a: unknown, b: unknown): boolean =>
  canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue);

/** The key of a list element in a fieldsV1 node, found by the element's value in `reference`. */
function elementKey(node: FieldsNode, element: unknown, index: number): string | undefined {
  for (const key of Object.keys(node)) {
    if (key === `i:${index}`) return key;
    if (key.startsWith('v:') && deepEqual(JSON.parse(key.slice(2)), element)) return key;
    if (key.startsWith('k:') && isNode(element)) {
      const fields = JSON.parse(key.slice(2)) as Record<string, unknown>;
      if (Object.entries(fields).every(([k, v]) => deepEqual((element as Record<string, unknown>)[k], v)))
        return key;
    }
  }
  return undefined;
}

/**
 * Where a pointer lands in a fieldsV1 set: the path of keys to its node (`found`), `atomic` when
 * an ancestor is owned as a whole (an atomic list or map: the pointer's field is part of it), or
 * `absent`. List indices are read against `reference`, the object the pointer was written for.
 */
export function locate(
  fields: unknown,
  tokens: readonly string[],
  reference: unknown,
): { at: 'found'; keys: string[] } | { at: 'atomic' } | { at: 'absent' } {
  if (!isNode(fields)) return { at: 'absent' };
  let node: FieldsNode = fields;
  let value: unknown = reference;
  const keys: string[] = [];
  for (const token of tokens) {
    if (keys.length > 0 && Object.keys(node).length === 0) return { at: 'atomic' };
    let key: string | undefined;
    if (Array.isArray(value)) {
      const index = arrayIndex(token, value.length);
      if (index === undefined) return { at: 'absent' };
      value = value[index];
      key = elementKey(node, value, index);
    } else {
      key = `f:${token}`;
      value = isNode(value) ? (value as Record<string, unknown>)[token] : undefined;
    }
    const next = key === undefined ? undefined : node[key];
    if (!key || !isNode(next)) return { at: 'absent' };
    keys.push(key);
    node = next;
  }
  return { at: 'found', keys };
}

const nodeAt = (fields: FieldsNode, keys: readonly string[]) =>
  keys.reduce<FieldsNode>((n, k) => n[k] as FieldsNode, fields);

/** Every owned path under `node`, as `/`-joined keys (a leaf or a `.` marks the node itself). */
function leaves(node: FieldsNode, prefix = ''): string[] {
  const keys = Object.keys(node);
  if (keys.length === 0) return [prefix];
  return keys.flatMap((k) => (k === '.' ? [prefix] : leaves(node[k] as FieldsNode, `${prefix}/${k}`)));
}

/**
 * True when lightkeeper's apply owns something at or under the pointer that no other manager
 * owns: dropping the pointer from our apply would make the API server remove it.
 */
export function soleOwnedByUs(live: unknown, tokens: readonly string[], reference: unknown): boolean {
  const entries = managedFieldsOf(live);
  const ours = entries.find(isOurApply);
  if (!ours) return false;
  const mine = locate(ours.fieldsV1, tokens, reference);
  if (mine.at === 'absent') return false;
  const owned = new Set<string>();
  for (const other of entries) {
    if (other === ours) continue;
    const theirs = locate(other.fieldsV1, tokens, reference);
    if (theirs.at === 'atomic') return false;
    if (theirs.at === 'found')
      for (const l of leaves(nodeAt(other.fieldsV1 as FieldsNode, theirs.keys))) owned.add(l);
  }
  if (mine.at === 'atomic') return true;
  return leaves(nodeAt(ours.fieldsV1 as FieldsNode, mine.keys)).some((l) => !owned.has(l));
}

/**
 * `fields` without the nodes the pointers land on, and without the parents that only held them:
 * what the drift check compares, so an ignored field changing hands is no drift.
 */
export function withoutIgnoredFields(
  fields: unknown,
  pointers: readonly (readonly string[])[],
  reference: unknown,
): unknown {
  if (!isNode(fields)) return fields;
  let result: FieldsNode = fields;
  for (const tokens of pointers) {
    const where = locate(result, tokens, reference);
    if (where.at === 'found') result = removeKeys(result, where.keys);
  }
  return result;
}

function removeKeys(node: FieldsNode, keys: readonly string[]): FieldsNode {
  const [head, ...rest] = keys as [string, ...string[]];
  const { [head]: child, ...kept } = node;
  if (rest.length === 0 || !child) return kept;
  const pruned = removeKeys(child, rest);
  return Object.keys(pruned).length === 0 ? kept : { ...kept, [head]: pruned };
}
