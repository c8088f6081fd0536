// The three functions as `npm run package` zips them, unpacked: what Lambda would import.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const functionNames = ['webhook', 'reconcile', 'sweep'] as const;
export type FunctionName = (typeof functionNames)[number];

export interface PackagedFunctions {
  /** `functions/<name>.mjs` of each unpacked zip. */
  bundles: Record<FunctionName, string>;
  remove: () => void;
}

const root = join(import.meta.dirname, '..');

export function packageFunctions(): PackagedFunctions {
  const dir = mkdtempSync(join(tmpdir(), 'lk-bench-package-'));
  try {
    execFileSync(process.execPath, [join(root, 'infra/osls.mjs'), 'package', '--package', dir], {
      cwd: root,
      stdio: 'ignore',
    });
    const bundles = {} as Record<FunctionName, string>;
    for (const fn of functionNames) {
      execFileSync('unzip', ['-q', '-o', join(dir, `${fn}.zip`), '-d', join(dir, fn)]);
      bundles[fn] = join(dir, fn, 'functions', `${fn}.mjs`);
    }
    return { bundles, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
