// The check bin/lightkeeper.mjs makes on every run: read the stamp and stat the ~170 files it lists
// (under a millisecond), and rebuild only when one of them changed. esbuild is loaded only then.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleDir, stampFile } from './bundleLayout.mjs';
import { readStamp, staleReason } from './bundleStamp.mjs';

/**
 * The path of a bundle built from the sources as they are now, building it when needed.
 * @param {string} root the project root
 * @param {{ sourcemaps?: boolean, log?: (line: string) => void }} [options] `sourcemaps`: a bundle with
 *   source maps is needed; `log` is told when (and why) a build runs
 * @returns {Promise<string>}
 */
export async function freshBundle(root, options = {}) {
  const stamp = readStamp(stampFile(root));
  const reason = staleReason(root, stamp, options);
  const main = stamp && join(bundleDir(root, stamp.build), 'main.mjs');
  if (!reason && existsSync(main)) return main;
  options.log?.(`building the CLI bundle (${reason ?? 'its build dir was removed'})`);
  const started = performance.now();
  const { buildBundle } = await import('./buildBundle.mjs');
  const built = await buildBundle(root, options);
  options.log?.(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return built;
}
