import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const repoRoot = join(import.meta.dirname, '../../..');

/** The documentation the tests check: README.md, ARCHITECTURE.md and every Markdown file in docs/. */
export function docFiles(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(repoRoot, 'docs', f));
  return [join(repoRoot, 'README.md'), join(repoRoot, 'ARCHITECTURE.md'), ...docs.sort()];
}

export const readDoc = (file: string) => readFileSync(file, 'utf8');
export const shortName = (file: string) => relative(repoRoot, file);
