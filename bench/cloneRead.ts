// Clone + read of the benchmark repository by lightkeeper's git layer (isomorphic-git: shallow
// fetch into the clone cache, files read from its packs by lib/git/objectStore), cold (empty cache) and warm (the
// same cache again, as a warm function container fetches), next to `git clone --depth 1`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fetchCommit, readManifestFiles } from '../lib/git';

export interface CloneRead {
  coldMs: number;
  warmMs: number;
  gitMs: number;
  files: number;
}

async function cloneAndRead(url: string, cacheRoot: string): Promise<{ ms: number; files: number }> {
  const started = performance.now();
  const { dir, commit, indexed } = await fetchCommit({ url, reference: 'main', cacheRoot });
  const files = await readManifestFiles({ dir, commit, indexed });
  return { ms: performance.now() - started, files: files.length };
}

export async function measureCloneRead(url: string): Promise<CloneRead> {
  const cacheRoot = mkdtempSync(join(tmpdir(), 'lk-bench-clone-'));
  const gitDir = mkdtempSync(join(tmpdir(), 'lk-bench-gitclone-'));
  try {
    const cold = await cloneAndRead(url, cacheRoot);
    const warm = await cloneAndRead(url, cacheRoot);
    const started = performance.now();
    // Asynchronously: the git server runs in this very process.
    await promisify(execFile)(
      'git',
      ['clone', '-q', '--depth', '1', '--single-branch', '--no-tags', url, join(gitDir, 'c')],
      {
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      },
    );
    return { coldMs: cold.ms, warmMs: warm.ms, gitMs: performance.now() - started, files: cold.files };
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
    rmSync(gitDir, { recursive: true, force: true });
  }
}
