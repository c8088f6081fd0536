import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, readDoc, shortName } from './docFiles';
import { headingAnchors, relativeLinks } from './markdown';

/** Every relative link of a file that leads nowhere: a missing file, or a heading it lacks. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of relativeLinks(readDoc(file))) {
    const [path, fragment] = target.split('#', 2) as [string, string | undefined];
    const to = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const where = `${shortName(file)}:${line}: ${target}`;
    if (!existsSync(to)) broken.push(`${where}: no file ${shortName(to)}`);
    else if (fragment !== undefined && to.endsWith('.md') && statSync(to).isFile()) {
      if (!headingAnchors(readDoc(to)).has(decodeURIComponent(fragment).toLowerCase()))
        broken.push(`${where}: ${shortName(to)} has no heading #${fragment}`);
    }
  }
  return broken;
}

describe('the documentation', () => {
  it('has a README, ARCHITECTURE.md and pages in docs/', () => {
    expect(docFiles().map(shortName)).toEqual(
      expect.arrayContaining(['README.md', 'ARCHITECTURE.md', 'docs/README.md']),
    );
  });

  it('links only to files and headings that exist', () => {
    const links = docFiles().flatMap((f) => relativeLinks(readDoc(f)));
    expect(links.length).toBeGreaterThan(30);
    expect(docFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it('links every page in docs/ from its index', () => {
    const index = relativeLinks(readDoc(docFiles().find((f) => shortName(f) === 'docs/README.md')!));
    const linked = new Set(index.map((l) => l.target.split('#')[0]));
    const pages = docFiles()
      .map(shortName)
      .filter((f) => f.startsWith('docs/') && f !== 'docs/README.md');
    expect(pages.filter((p) => !linked.has(p.slice('docs/'.length)))).toEqual([]);
  });
});
