import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../fixtures/kustomize', import.meta.url));

/**
 * test/fixtures/kustomize (a base, a component and the overlays `prod` and `staging`) as repository
 * files, the overlays' `namespace: NAMESPACE` set to `namespace`.
 */
export function kustomizeFixture(namespace: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[relative(root, full)] = readFileSync(full, 'utf8').replaceAll('NAMESPACE', namespace);
    }
  };
  walk(root);
  return files;
}
