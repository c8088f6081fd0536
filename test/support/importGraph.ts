import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

/** A TypeScript source file of the repository: its path from the root, its text and its line count. */
export interface SourceFile {
  path: string;
  lines: number;
}

/** One import (or `export … from`, or dynamic `import()`) of one source file by another. */
export interface ImportEdge {
  from: string;
  to: string;
}

export interface ImportGraph {
  files: SourceFile[];
  edges: ImportEdge[];
}

export const repositoryRoot = join(import.meta.dirname, '..', '..');

/** Lines as `wc -l` counts them (a final line without a newline counts too). */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The `.ts` files under `dir` (from the repository root), sorted, as paths from the root. */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(join(repositoryRoot, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) return typeScriptFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    })
    .sort();
}

/**
 * The relative imports between the `.ts` files under `roots`, type-only ones included (a type
 * import ties two files as much as a value import does), read with the TypeScript compiler's own
 * import scanner. Imports of packages and of files outside `roots` are left out.
 */
export function importGraph(roots: readonly string[]): ImportGraph {
  const paths = roots.flatMap(typeScriptFiles);
  const known = new Set(paths);
  const files: SourceFile[] = [];
  const edges: ImportEdge[] = [];
  for (const path of paths) {
    const text = readFileSync(join(repositoryRoot, path), 'utf8');
    files.push({ path, lines: lineCount(text) });
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = relative(repositoryRoot, join(repositoryRoot, dirname(path), imported.fileName));
      const resolved = [target, `${target}.ts`, posix.join(target, 'index.ts')].find((p) => known.has(p));
      if (resolved) edges.push({ from: path, to: resolved });
    }
  }
  return { files, edges };
}

/**
 * The import cycles of a graph: its strongly connected components of more than one node (Tarjan),
 * each as its sorted members. A node importing itself is no cycle here.
 */
export function cyclesOf(nodes: readonly string[], edges: ReadonlyArray<{ from: string; to: string }>) {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const { from, to } of edges) if (from !== to) next.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
