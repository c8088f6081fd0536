// A tenant's git server cannot stall or flood a fetch: every request has a deadline, a minimum
// rate and a size cap (lib/git/boundedHttp.ts), and a pack is refused past the object caps.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGitLimitError } from '../../../lib/errors';
import { fetchCommit } from '../../../lib/git';
import { cloneDirFor, isCloneComplete } from '../../../lib/git/cloneDir';
import { resolveHead } from '../../../lib/git/resolveHead';
import { commit, createRepo, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { DEFAULT_GIT_LIMITS, type GitLimits } from '../../../lib/settings/sourceLimits';
import { startTrickleProxy, type TrickleProxy } from '../../support/trickleProxy';

let server: GitServer;
let repo: TestRepo;
const roots: string[] = [];
const newRoot = () => {
  roots.push(mkdtempSync(join(tmpdir(), 'lk-limits-')));
  return roots.at(-1)!;
};
const proxies: TrickleProxy[] = [];
const trickle = async (match: (path: string) => boolean, chunkBytes: number, intervalMs: number) => {
  const proxy = await startTrickleProxy(server.url(''), {
    match: (req) => match(`${req.method} ${req.url}`),
    chunkBytes,
    intervalMs,
    // Bounded whatever the client does: 10 chunks, then the connection is dropped.
    maxChunks: 10,
  });
  proxies.push(proxy);
  return proxy;
};
/** A server that sends one byte every 2 s: 20 s for 10 bytes, then it hangs up. */
const oneByteEvery2s = (match: (path: string) => boolean) => trickle(match, 1, 2000);
const listing = (path: string) => path.includes('/info/refs');
const pack = (path: string) => path.startsWith('POST ') && path.endsWith('/git-upload-pack');
/** Tight rate limits so the test is quick: at least 100 bytes in every second. */
const limits = (overrides: Partial<GitLimits> = {}): GitLimits => ({
  ...DEFAULT_GIT_LIMITS,
  lowSpeedBytesPerSecond: 100,
  lowSpeedTimeMs: 1000,
  ...overrides,
});

beforeAll(async () => {
  server = await startGitServer();
  repo = createRepo(server, 'app');
  commit(repo, { 'a.yaml': 'a: 1\n', 'b.yaml': 'b: 2\n', 'c.yaml': 'c: 3\n' }, 'first');
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await server?.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function timed<T>(work: () => Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await work().then(
    () => undefined,
    (e) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('a git server that trickles', () => {
  it('fails the ref listing below the minimum rate, within the window', { timeout: 60_000 }, async () => {
    const proxy = await oneByteEvery2s(listing);
    const url = proxy.url(repo.name);
    const { error, ms } = await timed(() =>
      fetchCommit({ url, reference: 'main', cacheRoot: newRoot(), limits: limits() }),
    );
    expect(proxy.trickled).toHaveLength(1);
    expect(isGitLimitError(error) && error.limit).toBe('lowSpeedBytesPerSecond');
    expect((error as Error).message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/app sent \d bytes in 1000 ms, below the minimum rate: over the limit of 100 bytes\/s \(LIGHTKEEPER_GIT_LOW_SPEED_BYTES_PER_SECOND\)$/,
    );
    expect(ms).toBeLessThan(2500);
  });

  it('fails the dependsOn head listing the same way', { timeout: 60_000 }, async () => {
    const proxy = await oneByteEvery2s(listing);
    const { error, ms } = await timed(() =>
      resolveHead({ url: proxy.url(repo.name), reference: 'main', limits: limits() }),
    );
    expect(isGitLimitError(error) && error.limit).toBe('lowSpeedBytesPerSecond');
    expect(ms).toBeLessThan(2500);
  });

  it('fails the pack transfer, and keeps no half clone', { timeout: 60_000 }, async () => {
    const proxy = await oneByteEvery2s(pack);
    const url = proxy.url(repo.name);
    const cacheRoot = newRoot();
    const { error, ms } = await timed(() =>
      fetchCommit({ url, reference: 'main', cacheRoot, limits: limits() }),
    );
    expect(proxy.trickled).toHaveLength(1);
    expect(isGitLimitError(error) && error.limit).toBe('lowSpeedBytesPerSecond');
    expect(ms).toBeLessThan(2500);
    expect(isCloneComplete(cloneDirFor(url, cacheRoot, undefined))).toBe(false);
  });

  it('ends a transfer at its total deadline, rate or no rate', { timeout: 60_000 }, async () => {
    const proxy = await oneByteEvery2s(pack);
    const { error, ms } = await timed(() =>
      fetchCommit({
        url: proxy.url(repo.name),
        reference: 'main',
        cacheRoot: newRoot(),
        limits: limits({ timeoutMs: 1500, lowSpeedBytesPerSecond: 0 }),
      }),
    );
    expect(isGitLimitError(error) && error.limit).toBe('timeoutMs');
    expect((error as Error).message).toMatch(/did not finish within 1500 ms/);
    expect(ms).toBeLessThan(2500);
  });

  it("ends at the run's own deadline when that comes first", { timeout: 60_000 }, async () => {
    const proxy = await oneByteEvery2s(pack);
    const { error, ms } = await timed(() =>
      fetchCommit({
        url: proxy.url(repo.name),
        reference: 'main',
        cacheRoot: newRoot(),
        limits: { ...DEFAULT_GIT_LIMITS, lowSpeedBytesPerSecond: 0 },
        deadline: Date.now() + 1200,
      }),
    );
    expect(isGitLimitError(error) && error.limit).toBe('timeoutMs');
    expect((error as Error).message).toMatch(
      /did not finish within 1\d\d\d ms \(LIGHTKEEPER_GIT_TIMEOUT_MS, or the run's time budget\)$/,
    );
    expect(ms).toBeLessThan(2500);
  });
});

describe('a git server that is silent for a while', () => {
  // Node's global HTTP agent (Node 19 and later) times a socket out after 5 s without traffic, even
  // mid-request: the low-speed window, not that, must decide how long a server may think.
  it('is waited for within the low-speed window, past Node’s 5-s socket timeout', {
    timeout: 60_000,
  }, async () => {
    const proxy = await startTrickleProxy(server.url(''), {
      match: (req) => pack(`${req.method} ${req.url}`),
      chunkBytes: 1 << 20,
      intervalMs: 0,
      maxChunks: 10,
      firstDelayMs: 7_000,
    });
    proxies.push(proxy);
    const { error, ms } = await timed(() =>
      fetchCommit({
        url: proxy.url(repo.name),
        reference: 'main',
        cacheRoot: newRoot(),
        limits: limits({ lowSpeedBytesPerSecond: 1, lowSpeedTimeMs: 10_000 }),
      }),
    );
    expect(proxy.trickled).toHaveLength(1);
    expect(error).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(7_000);
  });
});

describe('a pack over a cap', () => {
  let big: TestRepo;
  beforeAll(() => {
    big = createRepo(server, 'big');
    commit(big, { 'a.yaml': 'a: 1\n', 'blob.bin': randomBytes(256 * 1024) }, 'first');
  });

  it('is refused past the response size, and no clone is kept', async () => {
    const cacheRoot = newRoot();
    const error = await fetchCommit({
      url: big.url,
      reference: 'main',
      cacheRoot,
      limits: limits({ maxResponseBytes: 64 * 1024 }),
    }).catch((e) => e);
    expect(isGitLimitError(error) && error.limit).toBe('maxResponseBytes');
    expect(error.message).toContain('over the limit of 65536 bytes (LIGHTKEEPER_GIT_MAX_RESPONSE_BYTES)');
    expect(isCloneComplete(cloneDirFor(big.url, cacheRoot, undefined))).toBe(false);
  });

  it('is refused past the object count or an object size', async () => {
    for (const [over, expected] of [
      [{ maxObjects: 2 }, 'maxObjects'],
      [{ maxObjectBytes: 128 * 1024 }, 'maxObjectBytes'],
    ] as const) {
      const error = await fetchCommit({
        url: big.url,
        reference: 'main',
        cacheRoot: newRoot(),
        limits: limits(over),
      }).catch((e) => e);
      expect(isGitLimitError(error) && error.limit).toBe(expected);
    }
  });

  it('is fetched within the defaults', async () => {
    const fetched = await fetchCommit({ url: big.url, reference: 'main', cacheRoot: newRoot() });
    expect(fetched.commit).toMatch(/^[0-9a-f]{40}$/);
  });
});
