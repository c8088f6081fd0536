// The shared real-world corpus (../shared/corpus beside the repository): read at test time and
// committed into temporary test repositories, never copied into the project.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type Manifest, manifestFileType, parseManifests } from '../../lib/manifests';

/** Resolved from the repository root, so CI clones with `shared/` beside them work too. */
export const corpusRoot = () => resolve(process.cwd(), '../shared/corpus');

/** The manifest files under `corpus/<dir>`, keyed by their path relative to that folder. */
export function corpusFiles(dir: string): Record<string, Buffer> {
  const base = join(corpusRoot(), dir);
  const files: Record<string, Buffer> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && manifestFileType(entry.name))
        files[relative(base, full)] = readFileSync(full);
    }
  };
  walk(base);
  return files;
}

/** The objects those files define, as the engine parses them (Lists expanded); throws on any parse error. */
export function corpusManifests(files: Record<string, Buffer>): Manifest[] {
  const { manifests, errors } = parseManifests(
    Object.entries(files).map(([path, content]) => ({ path, content })),
  );
  if (errors.length > 0)
    throw new Error(`corpus does not parse:\n${errors.map((e) => e.message).join('\n')}`);
  return manifests;
}
