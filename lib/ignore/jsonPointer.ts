/**
 * RFC 6901 JSON pointers, as Flux's `.spec.ignore` and Argo CD's `ignoreDifferences` take them
 * (`/spec/replicas`, `/metadata/annotations/example.com~1note`). No package in the tree parses
 * them, and the grammar is a few lines.
 */

/** The reference tokens of `pointer`, unescaped; a description of what is wrong otherwise. */
export function parsePointer(pointer: string): { tokens: string[] } | { error: string } {
  if (pointer === '') return { error: 'the empty pointer names the whole object' };
  if (!pointer.startsWith('/')) return { error: `${JSON.stringify(pointer)} does not start with /` };
  const raw = pointer.slice(1).split('/');
  for (const token of raw) {
    if (/~(?![01])/.test(token))
      return { error: `${JSON.stringify(pointer)}: ~ must be followed by 0 or 1 (~0 is ~, ~1 is /)` };
  }
  return { tokens: raw.map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~')) };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An array index token: `0` or digits without a leading zero (RFC 6901 §4). */
export const arrayIndex = (token: string, length: number): number | undefined => {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
  const index = Number(token);
  return index < length ? index : undefined;
};

/** The value at `tokens` in `root`, undefined when nothing is there. */
export function valueAt(root: unknown, tokens: readonly string[]): unknown {
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      const index = arrayIndex(token, node.length);
      if (index === undefined) return undefined;
      node = node[index];
    } else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/**
 * A copy of `root` with the value at `tokens` replaced by `value`, or removed when `value` is
 * undefined (an array element is spliced out). Containers on the way are copied, never mutated;
 * a path that does not exist is left alone, and so is a missing parent when setting.
 */
export function withValueAt<T>(root: T, tokens: readonly string[], value: unknown): T {
  if (tokens.length === 0) return root;
  const [head, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(root)) {
    const index = arrayIndex(head, root.length);
    if (index === undefined) return root;
    const copy = [...root];
    if (rest.length > 0) copy[index] = withValueAt(copy[index], rest, value);
    else if (value === undefined) copy.splice(index, 1);
    else copy[index] = value;
    return copy as T;
  }
  if (!isObject(root)) return root;
  if (rest.length > 0) {
    // Setting creates the maps on the way (a kept value whose parent left the manifest).
    if (!Object.hasOwn(root, head) && (value === undefined || /^[0-9]+$/.test(rest[0] as string)))
      return root;
    return { ...root, [head]: withValueAt(root[head] ?? {}, rest, value) };
  }
  if (value !== undefined) return { ...root, [head]: value };
  if (!Object.hasOwn(root, head)) return root;
  const { [head]: _removed, ...kept } = root;
  return kept as T;
}

/** Numeric-aware descending order: removing `/a/1` before `/a/0` keeps the indices meaning what they said. */
function compareDescending(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i] as string, b[i] as string];
    if (x === y) continue;
    const numeric = /^[0-9]+$/.test(x) && /^[0-9]+$/.test(y);
    return numeric ? Number(y) - Number(x) : y < x ? -1 : 1;
  }
  return b.length - a.length;
}

/** A copy of `root` without the values at `pointers` (already parsed), each resolved against `root`. */
export function withoutPointers<T>(root: T, pointers: readonly (readonly string[])[]): T {
  return [...pointers].sort(compareDescending).reduce((r, tokens) => withValueAt(r, tokens, undefined), root);
}
