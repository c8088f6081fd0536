#!/usr/bin/env node
// Runs the CLI from an esbuild bundle of lib/ in dist/cli/ (git-ignored), which this launcher
// rebuilds whenever a file it was built from changed (infra/cli-bundle/): no build step, and no
// TypeScript transpiled on every run. Source maps are built and read only for --debug, where
// stacks print.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshBundle } from '../infra/cli-bundle/freshBundle.mjs';
import { unsupportedNode } from '../infra/node-runtime.mjs';

const root = join(import.meta.dirname, '..');
// Run directly by an older Node (`node bin/lightkeeper.mjs` with Node 20 on the PATH): say how to run
// it on Node 22 rather than re-executing under it, which would leave a parent process in between
// that gets a terminal's Ctrl-C as well as the child (Node 20 cannot replace itself, execve-style).
const refused = unsupportedNode(root);
if (refused) {
  console.error(refused);
  process.exit(2);
}
// Read before the bundle exists, as lib/config/cliConfig.ts wantsDebug reads it.
const debug = process.argv.includes('--debug') || ['1', 'true'].includes(process.env.LIGHTKEEPER_DEBUG ?? '');
if (debug) process.setSourceMapsEnabled(true);
// Someone at a terminal is told why this run takes seconds; pipes and tests see nothing.
const log = debug || process.stderr.isTTY ? (line) => console.error(`[lightkeeper] ${line}`) : undefined;

let main;
try {
  main = await freshBundle(root, { sourcemaps: debug, log });
} catch (e) {
  if (!['EACCES', 'EPERM', 'EROFS'].includes(e?.code)) {
    console.error(`lightkeeper: cannot build the CLI from ${join(root, 'lib')}: ${e?.message ?? e}`);
    process.exit(1);
  }
  // A checkout we may not write to: run the sources through tsx, slowly but correctly.
  console.error(`[lightkeeper] cannot write the CLI bundle (${e.code}): running the sources through tsx`);
  const { register } = await import('tsx/esm/api');
  register();
  main = join(root, 'lib', 'cli', 'main.ts');
}
await import(pathToFileURL(main).href);
