// A commit's tree cannot make a read unbounded: a few KiB of trees that name one subtree twice per
// level name 2^depth paths. The walkers (readManifestFiles, materializeCommit) stop at the first cap.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGitLimitError } from '../../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../../lib/git';
import { materializeCommit } from '../../../lib/kustomize/materializeCommit';
import { renderKustomization } from '../../../lib/kustomize/renderKustomization';
import { commit, createRepo, gitEnv, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { DEFAULT_GIT_LIMITS, type GitLimits, loadSourceLimits } from '../../../lib/settings/sourceLimits';

let server: GitServer;
const roots: string[] = [];
const newRoot = () => {
  roots.push(mkdtempSync(join(tmpdir(), 'lk-read-limits-')));
  return roots.at(-1)!;
};

beforeAll(async () => {
  server = await startGitServer();
});

afterAll(async () => {
  await server?.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/**
 * A repository whose main is a tree of `depth` levels, each naming the level below twice (`a`, `b`),
 * over one file `name` of `bytes` bytes: 2^depth paths to the same blob.
 */
function doublingRepo(repoName: string, depth: number, name: string, bytes: number): TestRepo {
  const repo = createRepo(server, repoName);
  commit(repo, { 'README.md': 'x\n' }, 'first');
  const blob = git(repo, ['hash-object', '-w', '--stdin'], `data: "${'x'.repeat(bytes - 10)}"\n`);
  let tree = git(repo, ['mktree'], `100644 blob ${blob}\t${name}\n`);
  for (let level = 0; level < depth; level++)
    tree = git(repo, ['mktree'], `040000 tree ${tree}\ta\n040000 tree ${tree}\tb\n`);
  const head = git(repo, ['commit-tree', tree, '-p', 'HEAD', '-m', 'doubling']);
  git(repo, ['update-ref', 'refs/heads/main', head]);
  return repo;
}

const git = (repo: TestRepo, args: string[], input?: string) =>
  execFileSync('git', ['-C', repo.dir, ...args], { env: gitEnv, input, encoding: 'utf8' }).trim();

const limits = (overrides: Partial<GitLimits>): GitLimits => ({ ...DEFAULT_GIT_LIMITS, ...overrides });

describe('a tree that names one subtree twice per level', () => {
  it('naming one 1 MiB file 4,096 times stops at the read cap, quickly and with a bounded RSS', {
    timeout: 120_000,
  }, async () => {
    const repo = doublingRepo('doubling-1mib', 12, 'x.yaml', 1024 * 1024);
    const script = join(__dirname, '../../support/readCommitPeak.ts');
    // Asynchronously: the git server answers from this process.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', script, repo.url, newRoot()],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    console.error(`[read limits] ${JSON.stringify(outcome)}`);
    expect(outcome.limit).toBe('maxReadBytes');
    expect(outcome.error).toMatch(
      /^commit [0-9a-f]{40} is too large to read: (a\/|b\/)+x\.yaml makes \d+ bytes of files: over the limit of 32 MiB \(LIGHTKEEPER_GIT_MAX_READ_BYTES\)$/,
    );
    expect(outcome.ms).toBeLessThan(10_000);
    expect(outcome.peakRssMiB).toBeLessThan(400);
  });

  it('stops at the tree-entry cap and at the file cap', async () => {
    const repo = doublingRepo('doubling-small', 15, 'x.yaml', 32);
    const fetched = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: newRoot() });
    const read = (over: Partial<GitLimits>) =>
      readManifestFiles({ dir: fetched.dir, commit: fetched.commit, limits: limits(over) }).catch((e) => e);

    const entries = await read({ maxTreeEntries: 1000 });
    expect(isGitLimitError(entries) && entries.limit).toBe('maxTreeEntries');
    expect(entries.message).toContain('over the limit of 1000 (LIGHTKEEPER_GIT_MAX_TREE_ENTRIES)');
    const files = await read({ maxFiles: 100 });
    expect(isGitLimitError(files) && files.limit).toBe('maxFiles');
    expect(files.message).toContain('makes 101 files: over the limit of 100 (LIGHTKEEPER_GIT_MAX_FILES)');
    // Within the defaults: 32,768 paths of 32 bytes.
    expect(await read({})).toHaveLength(32_768);
  });

  it('stops writing the commit out for a render at the same caps', async () => {
    const repo = doublingRepo('doubling-render', 16, 'kustomization.yaml', 32);
    const fetched = await fetchCommit({ url: repo.url, reference: 'main', cacheRoot: newRoot() });
    const into = join(newRoot(), 'repo');
    const error = await materializeCommit({
      dir: fetched.dir,
      commit: fetched.commit,
      into,
      limits: limits({ maxFiles: 100 }),
    }).catch((e) => e);
    expect(isGitLimitError(error) && error.limit).toBe('maxFiles');
    const written = readdirSync(into, { recursive: true }).filter((p) => String(p).endsWith('.yaml'));
    expect(written).toHaveLength(100);

    // Through the render, a cap is the kustomization's error: the commit is broken, nothing applied.
    {
      const render = await renderKustomization({
        source: { kind: 'commit', dir: fetched.dir, commit: fetched.commit },
        subPath: 'a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a',
        limits: loadSourceLimits({ LIGHTKEEPER_GIT_MAX_FILES: '100' }),
      });
      expect(render?.files).toEqual([]);
      expect(render?.errors.map((e) => e.message)).toEqual([
        expect.stringContaining('over the limit of 100 (LIGHTKEEPER_GIT_MAX_FILES)'),
      ]);
    }
  });
});
