import { isMap, isScalar, isSeq, type LineCounter, type Node, type Scalar } from 'yaml';
import type { ValuePath } from './SourceDocument';

/**
 * Finds lines of values in a YAML AST by walking `path`; stops at aliases and merged keys.
 * `keyText` gives a key as it appears in the path (default: its value as a string).
 */
export function lineLocator(
  root: Node | null,
  lineCounter: LineCounter,
  fallback: number,
  keyText: (key: Scalar) => string | undefined = (key) => String(key.value),
) {
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;

  return (path: ValuePath): number => {
    let node: unknown = root;
    let line = lineAt((root as Node | null)?.range?.[0]) ?? fallback;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && keyText(item.key) === String(segment));
        if (!pair) break;
        line = lineAt((pair.key as Node).range?.[0]) ?? line;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        line = lineAt((node as Node | undefined)?.range?.[0]) ?? line;
      } else {
        break;
      }
    }
    return line;
  };
}
