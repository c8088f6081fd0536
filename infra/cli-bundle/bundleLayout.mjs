// Where the CLI bundle lives: dist/ is git-ignored, so nothing built is ever committed.
import { join } from 'node:path';

/** The one entry point: everything else is reached from its imports. */
export const entryPoint = (root) => join(root, 'lib', 'cli', 'main.ts');

/** Names the current build and lists the files it was built from. */
export const stampFile = (root) => join(root, 'dist', 'cli', 'stamp.json');

/** One build, named by the hash of its output: main.mjs, its chunks and their source maps. */
export const bundleDir = (root, build) => join(root, 'dist', 'cli', build);
