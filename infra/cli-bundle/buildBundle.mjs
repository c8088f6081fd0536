// Builds the CLI bundle (lib/cli/main.ts and what it imports) with esbuild into
// dist/cli/<content hash>/, then points dist/cli/stamp.json at it. Safe when several CLIs build
// at once: each writes a private temp dir and renames it into place (a rename is atomic, and a
// dir of that hash already there holds the same bytes), then replaces the stamp by a rename.
// The npm packages are bundled too: @kubernetes/client-node alone is ~750 modules, which node
// resolves and loads one by one in 1.3 s at load 12 here, bundled in 0.17 s. Code splitting keeps
// each command's packages in chunks of their own, loaded only when that command runs
// (lib/cli/cliCommands.ts).
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { bundleDir, entryPoint, stampFile } from './bundleLayout.mjs';
import { stampVersion, statInput, writeStamp } from './bundleStamp.mjs';

/**
 * Files that shape the bundle besides the sources esbuild reports reading. A package's files are
 * not stat'ed one by one (there are ~2,000): npm rewrites node_modules/.package-lock.json on
 * every install, and the lockfile names every version.
 */
const configInputs = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'tsconfig.json',
  'infra/cli-bundle/buildBundle.mjs',
  'infra/cli-bundle/bundleLayout.mjs',
  'infra/cli-bundle/bundleStamp.mjs',
];

/**
 * Builds older than this that are not current are removed. A CLI still running from one loads
 * its command's chunks right after it starts, so a few minutes are ample.
 */
const keepOldBuildsMs = 10 * 60 * 1000;

/**
 * Sources keep their own location: `new URL('../../crds', import.meta.url)` in lib/kube/crds.ts must
 * still name <root>/crds when the code runs from dist/cli/<hash>/. Every output file sits directly in
 * the build dir, so a path relative to it stands in for the source's own URL.
 */
function sourceLocation(outdir) {
  return {
    name: 'lightkeeper-source-location',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        let contents = readFileSync(args.path, 'utf8');
        if (!contents.includes('import.meta.')) return { contents, loader: 'ts' };
        const rel = relative(outdir, args.path).split(sep).map(encodeURIComponent).join('/');
        const url = `new URL(${JSON.stringify(rel)}, import.meta.url)`;
        contents = contents
          .replaceAll('import.meta.url', `${url}.href`)
          .replaceAll('import.meta.filename', `__lkFileURLToPath(${url})`)
          .replaceAll('import.meta.dirname', `__lkDirname(__lkFileURLToPath(${url}))`);
        // Prepended on the first line, so the source map's line numbers stay right.
        const imports =
          "import { fileURLToPath as __lkFileURLToPath } from 'node:url'; import { dirname as __lkDirname } from 'node:path'; ";
        return { contents: imports + contents, loader: 'ts' };
      });
    },
  };
}

/** mtime and size of every candidate input, taken before esbuild reads them. */
function statSources(root) {
  const stats = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) stats.set(path, statInput(root, path));
    }
  };
  walk('lib');
  for (const path of configInputs) stats.set(path, statInput(root, path));
  return stats;
}

/** Removes builds other than `current` that are older than `keepOldBuildsMs`, and temp dirs a crash left. */
function pruneOldBuilds(cliDir, current) {
  const now = Date.now();
  for (const name of readdirSync(cliDir)) {
    if (name === current || name === 'stamp.json') continue;
    const path = join(cliDir, name);
    try {
      if (now - statSync(path).mtimeMs > keepOldBuildsMs) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another CLI removed it first.
    }
  }
}

/**
 * Builds the bundle and makes it current. Source maps add ~40% to a build, and only --debug prints
 * stacks: they are written when asked for (a --debug run asks, and rebuilds once if they are missing).
 * @param {string} root
 * @param {{ sourcemaps?: boolean }} [options]
 * @returns {Promise<string>} the path of the bundle's main.mjs
 */
export async function buildBundle(root, options = {}) {
  const sourcemaps = options.sourcemaps === true;
  const { build } = await import('esbuild');
  const cliDir = dirname(stampFile(root));
  // Output paths (and the relative source paths in the maps) are computed for a dir of the same
  // depth as the final dist/cli/<hash>/.
  const outdir = bundleDir(root, 'pending');
  const before = statSources(root);
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: entryPoint(root) },
    bundle: true,
    // CommonJS packages in an ES module: their require() of node's built-ins needs a real one.
    banner: {
      js: "import { createRequire as __lkCreateRequire } from 'node:module'; const require = __lkCreateRequire(import.meta.url);",
    },
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // node-fetch 2 (under @kubernetes/client-node) reaches Node's deprecated punycode module, which
    // Node 22 warns about on stderr: the npm package of the same code is bundled instead.
    alias: { punycode: 'punycode/' },
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    sourcemap: sourcemaps ? 'linked' : false,
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [sourceLocation(outdir)],
  });
  const files = result.outputFiles.map((f) => ({ name: relative(outdir, f.path), contents: f.contents }));
  // What each output holds and loads (esbuild's metafile): which packages `--help` loads, for one.
  files.push({ name: 'meta.json', contents: new TextEncoder().encode(JSON.stringify(result.metafile)) });
  files.sort((a, b) => a.name.localeCompare(b.name));
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update('\0').update(f.contents);
  const id = hash.digest('hex').slice(0, 16);
  const final = bundleDir(root, id);

  mkdirSync(cliDir, { recursive: true });
  const tmp = join(cliDir, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(tmp);
  for (const f of files) writeFileSync(join(tmp, f.name), f.contents);
  try {
    renameSync(tmp, final);
  } catch (e) {
    // Another CLI built the same sources first: its dir holds the same bytes. Touched, so that no
    // CLI prunes it as an old build while it becomes current again.
    rmSync(tmp, { recursive: true, force: true });
    if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    const now = new Date();
    utimesSync(final, now, now);
  }

  // Each input's stat from before the build: a file edited while esbuild ran leaves the stamp stale.
  const sources = Object.keys(result.metafile.inputs).filter((path) => !path.includes('node_modules/'));
  const used = new Set([...sources, ...configInputs]);
  const inputs = [...used]
    .map((path) => (before.has(path) ? before.get(path) : statInput(root, path)) ?? [path, -1, -1])
    .sort((a, b) => a[0].localeCompare(b[0]));
  writeStamp(stampFile(root), { version: stampVersion, build: id, sourcemaps, inputs });
  pruneOldBuilds(cliDir, id);
  return join(final, 'main.mjs');
}
