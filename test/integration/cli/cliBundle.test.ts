import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Each test runs the CLI of a copy of the project (its sources; node_modules linked), so that it
// can edit sources and remove the bundle without touching the checkout the suite runs from.
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'cli-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function copyProject(name: string): string {
  const dir = join(work, name);
  for (const path of [
    'bin',
    'lib',
    'infra/cli-bundle',
    'infra/node-runtime.mjs',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
  ])
    cpSync(join(root, path), join(dir, path), { recursive: true });
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'));
  return dir;
}

const lightkeeper = (dir: string, ...args: string[]) =>
  run('node', [join(dir, 'bin', 'lightkeeper.mjs'), ...args], {
    env: { ...process.env, LIGHTKEEPER_DEBUG: '' },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

interface Stamp {
  build: string;
  sourcemaps: boolean;
  inputs: [string, number, number][];
}
const stampOf = (dir: string): Stamp => JSON.parse(readFileSync(join(dir, 'dist/cli/stamp.json'), 'utf8'));
const stampTime = (dir: string) => statSync(join(dir, 'dist/cli/stamp.json')).mtimeMs;
const builds = (dir: string) => readdirSync(join(dir, 'dist/cli')).filter((f) => f !== 'stamp.json');

/** Replaces `from` by `to` in a source file of the copy (the file's size changes with it). */
function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

describe('the CLI bundle', () => {
  it('is built on the first run, reused while the sources are unchanged, rebuilt when one changes', async () => {
    const dir = copyProject('stale');
    const first = await lightkeeper(dir, '--help');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('serverless GitOps reconciler for Kubernetes');
    const stamp = stampOf(dir);
    expect(existsSync(join(dir, 'dist/cli', stamp.build, 'main.mjs'))).toBe(true);
    expect(stamp.inputs.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        'lib/cli/main.ts',
        'lib/cli/parseTrackArg.ts',
        'node_modules/.package-lock.json',
      ]),
    );

    const builtAt = stampTime(dir);
    expect((await lightkeeper(dir, '--help')).code).toBe(0);
    expect(stampTime(dir)).toBe(builtAt);

    // A source the top-level help is built from, and one only a lazily loaded command imports.
    edit(dir, 'lib/cli/main.ts', 'serverless GitOps reconciler for Kubernetes', 'a reconciler, edited');
    edit(dir, 'lib/cli/parseTrackArg.ts', 'expected gittrack/NAME', 'edited: expected gittrack/NAME');
    // The build before is an hour old now: the rebuild removes it.
    const old = join(dir, 'dist/cli', stamp.build);
    utimesSync(old, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const edited = await lightkeeper(dir, '--help');
    expect(edited.stdout).toContain('a reconciler, edited');
    expect(edited.stdout).not.toContain('serverless GitOps reconciler');
    const refused = await lightkeeper(dir, 'reconcile', 'nonsense');
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('edited: expected gittrack/NAME'),
    });
    expect(stampOf(dir).build).not.toBe(stamp.build);
    expect(builds(dir)).toEqual([stampOf(dir).build]);

    // --debug rebuilds once with source maps: stack frames name the TypeScript sources.
    const debug = await lightkeeper(dir, 'reconcile', 'nonsense', '--debug');
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/at parseTrackArg \(.*lib\/cli\/parseTrackArg\.ts:\d+:\d+\)/);
    expect(stampOf(dir).sourcemaps).toBe(true);
  }, 120_000);

  it('survives concurrent first runs: one consistent bundle, no temp dirs left', async () => {
    const dir = copyProject('concurrent');
    const runs = await Promise.all([1, 2, 3].map(() => lightkeeper(dir, '--help')));
    for (const r of runs) expect(r).toMatchObject({ code: 0, stdout: runs[0]?.stdout, stderr: '' });
    const stamp = stampOf(dir);
    // Every run built the same sources: one content-addressed dir, whichever stamp landed last.
    expect(builds(dir)).toEqual([stamp.build]);
    expect(readdirSync(join(dir, 'dist/cli', stamp.build))).toContain('main.mjs');
    const builtAt = stampTime(dir);
    expect((await lightkeeper(dir, '--help')).code).toBe(0);
    expect(stampTime(dir)).toBe(builtAt);
  }, 120_000);

  it('loads no Kubernetes client, git or AWS SDK for --help', async () => {
    expect((await lightkeeper(root, '--help')).code).toBe(0);
    const bundle = bundleGraph(root);
    const inputs = bundle.staticInputs(['main.mjs']);
    expect(inputs).toContain('lib/cli/main.ts');
    expect(inputs.filter((i) => heavy.test(i))).toEqual([]);
    // …while the reconcile command, loaded lazily, has the Kubernetes client.
    expect(bundle.allInputs.some((i) => i.includes('node_modules/@kubernetes/client-node/'))).toBe(true);
  }, 120_000);

  it('defines every command without them: completion reads all the options and loads none', async () => {
    const completion = await lightkeeper(root, 'completion', 'bash');
    expect(completion.code).toBe(0);
    expect(completion.stdout).toContain('--all-namespaces');
    const bundle = bundleGraph(root);
    // The command modules main.mjs loads on demand, and what each imports statically.
    const commands = bundle.dynamicImports('main.mjs');
    expect(commands.length).toBeGreaterThanOrEqual(15);
    const inputs = bundle.staticInputs(['main.mjs', ...commands]);
    expect(inputs).toContain('lib/cli/reconcileCommand.ts');
    expect(inputs.filter((i) => heavy.test(i) || /node_modules\/@peculiar\//.test(i))).toEqual([]);
  }, 120_000);
});

/** The packages a CLI answer that talks to no cluster must not load. */
const heavy = /node_modules\/(@kubernetes|isomorphic-git|@aws-sdk|undici|@octokit)\//;

/** The bundle's output files as esbuild's metafile lists them: what each imports, and from which sources. */
function bundleGraph(dir: string) {
  const stamp = stampOf(dir);
  const meta: {
    outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
  } = JSON.parse(readFileSync(join(dir, 'dist/cli', stamp.build, 'meta.json'), 'utf8'));
  const byName = new Map(Object.entries(meta.outputs).map(([path, out]) => [path.split('/').pop(), out]));
  const imports = (name: string, kind: string) =>
    (byName.get(name)?.imports ?? [])
      .filter((i) => i.kind === kind && i.path.startsWith('dist/'))
      .map((i) => i.path.split('/').pop() as string);
  return {
    allInputs: Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)),
    dynamicImports: (name: string) => imports(name, 'dynamic-import'),
    /** The sources of `names` and of every file they import statically. */
    staticInputs(names: string[]): string[] {
      const loaded = new Set<string>();
      const visit = (name: string) => {
        if (loaded.has(name)) return;
        loaded.add(name);
        for (const next of imports(name, 'import-statement')) visit(next);
      };
      for (const name of names) visit(name);
      return [...loaded].flatMap((name) => Object.keys(byName.get(name)?.inputs ?? {}));
    },
  };
}
