// Runs before `npm start` and `npm test`: installs npm packages on a fresh clone
// (the lockfile decides versions) so the quick start is one command each. It runs on whatever Node
// is on the PATH; the packages include the Node the scripts after it run on (infra/node-runtime.mjs).
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
// `npm ci` through a symlinked node_modules empties the directory it points at, which other
// checkouts (git worktrees) share: never install there, only say so.
const linked = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();
if (stale && linked) {
  console.error(
    '[lightkeeper] node_modules is a symlink and may be stale: not installing into it (run npm ci where it points)',
  );
} else if (stale) {
  console.error('[lightkeeper] installing npm packages (npm ci)');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
const { nodeMajor, unsupportedNode } = await import('./node-runtime.mjs');
const root = join(import.meta.dirname, '..');
if (!existsSync('node_modules/.bin/node') && unsupportedNode(root)) {
  // package.json pins Node for the platforms the registry has a build of (linux x64 and arm64).
  console.error(
    `[lightkeeper] no pinned Node for ${process.platform}-${process.arch} and the PATH has ${process.version}: the scripts need Node ${nodeMajor} on the PATH`,
  );
}

// The CLI runs from a bundle (bin/lightkeeper.mjs): build it now when the sources changed, so the
// first `npx lightkeeper` after `npm start` or `npm test` answers at once.
const { freshBundle } = await import('./cli-bundle/freshBundle.mjs');
await freshBundle(root, { log: (line) => console.error(`[lightkeeper] ${line}`) });
