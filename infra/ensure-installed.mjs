// Runs before `npm start` and `npm test`: installs npm packages on a fresh clone
// (the lockfile decides versions) so the quick start is one command each.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
if (stale) {
  console.error('[lightkeeper] installing npm packages (npm ci)');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
