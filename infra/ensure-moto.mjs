// Installs moto's server (the AWS API the integration tests run against) into a Python virtual
// environment in the project's cache, once per pinned version: `npm test` runs this before the
// tests, and the test support runs it when the environment is missing. Prints the environment's
// directory on stdout; progress goes to stderr. Nothing is installed system-wide.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const motoVersion = '5.2.5';

const cache =
  process.env.LIGHTKEEPER_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'lightkeeper');
const root = join(cache, 'moto', motoVersion);
const venv = join(root, 'venv');
// Written last: a venv without it is a half-finished install and is made again.
const marker = join(venv, '.lightkeeper-installed');

if (!existsSync(marker)) {
  const python = process.env.LIGHTKEEPER_PYTHON ?? 'python3';
  const started = Date.now();
  console.error(`[moto] installing moto[server]==${motoVersion} into ${venv}`);
  mkdirSync(root, { recursive: true });
  // Built beside the final place and renamed into it, so concurrent runs never see half a venv.
  // The venv is run as `venv/bin/python -m moto.server`, which survives the rename (scripts'
  // shebangs would not).
  const staging = join(root, `venv.${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    execFileSync(python, ['-m', 'venv', staging], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync(
      join(staging, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `moto[server]==${motoVersion}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    writeFileSync(join(staging, '.lightkeeper-installed'), `${motoVersion}\n`);
    if (!existsSync(marker)) {
      rmSync(venv, { recursive: true, force: true });
      renameSync(staging, venv);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  console.error(`[moto] installed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}
console.log(venv);
