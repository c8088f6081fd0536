// Repositories with real history, built with the git CLI inside a local git server's root.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GitServer } from './gitServer';

export interface TestRepo {
  name: string;
  /** Working tree of the served (non-bare) repository. */
  dir: string;
  url: string;
}

export interface CommitOptions {
  /** Symlinks to create: path → link target. */
  symlinks?: Record<string, string>;
  /** Submodule entries (gitlinks) to add: path → commit SHA. */
  gitlinks?: Record<string, string>;
  /** Commit on this branch, creating it from the current HEAD if it does not exist. */
  branch?: string;
}

/** git's environment for repositories made here: no user or system config, a fixed author. */
export const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function git(repo: TestRepo, ...args: string[]): string {
  return execFileSync('git', ['-C', repo.dir, ...args], { env: gitEnv, encoding: 'utf8' }).trim();
}

export function createRepo(server: GitServer, name: string): TestRepo {
  const dir = join(server.root, name);
  mkdirSync(dir, { recursive: true });
  const repo = { name, dir, url: server.url(name) };
  git(repo, 'init', '-q', '-b', 'main');
  return repo;
}

/** Writes `files` (null deletes), commits everything and returns the new commit's SHA. */
export function commit(
  repo: TestRepo,
  files: Record<string, string | Uint8Array | null>,
  message: string,
  options: CommitOptions = {},
): string {
  if (options.branch !== undefined) {
    const exists = git(repo, 'branch', '--list', options.branch) !== '';
    git(repo, 'checkout', '-q', ...(exists ? [] : ['-b']), options.branch);
  }
  for (const [path, content] of Object.entries(files)) {
    const full = join(repo.dir, path);
    if (content === null) {
      rmSync(full, { recursive: true, force: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  for (const [path, target] of Object.entries(options.symlinks ?? {})) {
    const full = join(repo.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    rmSync(full, { force: true });
    symlinkSync(target, full);
  }
  git(repo, 'add', '-A');
  for (const [path, sha] of Object.entries(options.gitlinks ?? {})) {
    // An empty directory keeps `git add -A` in later commits from dropping the gitlink.
    mkdirSync(join(repo.dir, path), { recursive: true });
    git(repo, 'update-index', '--add', '--cacheinfo', `160000,${sha},${path}`);
  }
  git(repo, 'commit', '-q', '--allow-empty', '-m', message);
  return git(repo, 'rev-parse', 'HEAD');
}

/** Creates a tag at `sha` (default HEAD); annotated when a message is given. */
export function tag(repo: TestRepo, name: string, sha = 'HEAD', message?: string): void {
  git(repo, 'tag', ...(message === undefined ? [] : ['-a', '-m', message]), name, sha);
}
