import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { finalStatus, pendingStatus } from '../../../lib/github/commitStatus';
import { createGitHubClient } from '../../../lib/github/githubClient';
import { postCommitStatus } from '../../../lib/github/postCommitStatus';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import {
  type GitHubRecorder,
  rateLimited,
  secondaryRateLimited,
  startGitHubRecorder,
} from '../../support/githubRecorder';

// lib/github against a loopback server that answers like the GitHub REST API: what is sent, and
// how rate limits and server errors are waited out or given up.

let gh: GitHubRecorder;
beforeAll(async () => {
  gh = await startGitHubRecorder();
});
afterAll(() => gh.close());
beforeEach(() => {
  gh.requests.length = 0;
});

const sha = 'c'.repeat(40);
const commit = { owner: 'acme', repo: 'app', sha };
const track = { kind: 'GitTrack' as const, namespace: 'team-a', name: 'app' };
const succeeded: ReconcileSummary = {
  track,
  mode: 'apply',
  result: 'Succeeded',
  commit: sha,
  durationMs: 5,
  counts: {
    discovered: 2,
    applied: 2,
    inSync: 0,
    ignored: 0,
    failed: 0,
    conflicts: 0,
    pruned: 1,
    unavailable: 0,
    drifted: 0,
  },
  changes: [],
  ignored: [],
  errors: [],
  writes: { objects: 3, health: 0, status: 1 },
};

const client = (options: Partial<Parameters<typeof createGitHubClient>[0]> = {}) =>
  createGitHubClient({ token: 'ghp_secret', baseUrl: gh.url, retryDelayMs: 10, ...options });

describe('postCommitStatus', () => {
  it('posts pending then success on the commit, with the token, context, description and target URL', async () => {
    const github = client();
    const url = 'https://ci.example/app';
    expect(await postCommitStatus(github, commit, pendingStatus(track, url))).toEqual({
      posted: true,
      state: 'pending',
    });
    expect(await postCommitStatus(github, commit, finalStatus(succeeded, sha, url))).toEqual({
      posted: true,
      state: 'success',
    });
    expect(gh.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', `/repos/acme/app/statuses/${sha}`],
      ['POST', `/repos/acme/app/statuses/${sha}`],
    ]);
    for (const r of gh.requests) expect(r.headers.authorization).toBe('token ghp_secret');
    expect(gh.requests.map((r) => r.body)).toEqual([
      {
        state: 'pending',
        context: 'lightkeeper/GitTrack/team-a/app',
        description: 'reconciling',
        target_url: url,
      },
      {
        state: 'success',
        context: 'lightkeeper/GitTrack/team-a/app',
        description: 'applied 2, pruned 1, failed 0',
        target_url: url,
      },
    ]);
  });

  it('waits out a primary rate limit until x-ratelimit-reset, then posts', async () => {
    gh.answer(rateLimited(1));
    const retried: number[] = [];
    const outcome = await postCommitStatus(
      client({ onRetry: (_what, after) => retried.push(after) }),
      commit,
      pendingStatus(track),
    );
    expect(outcome).toEqual({ posted: true, state: 'pending' });
    expect(gh.requests).toHaveLength(2);
    expect(retried).toHaveLength(1);
    const [first, second] = gh.requests;
    // The retry came after the reset the 403 announced, not at once.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('waits out a secondary rate limit for retry-after seconds, then posts', async () => {
    gh.answer(secondaryRateLimited(1));
    const outcome = await postCommitStatus(client(), commit, pendingStatus(track));
    expect(outcome).toEqual({ posted: true, state: 'pending' });
    const [first, second] = gh.requests;
    expect(gh.requests).toHaveLength(2);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('does not wait for a rate limit that resets too late: an outcome, not a hang', async () => {
    gh.answer(rateLimited(3600));
    const started = Date.now();
    const outcome = await postCommitStatus(client(), commit, pendingStatus(track));
    expect(outcome).toMatchObject({ posted: false, status: 403 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(gh.requests).toHaveLength(1);
  });

  it('retries a server error, then gives up with an outcome instead of throwing', async () => {
    const failing = { status: 500, body: { message: 'Internal Server Error' } };
    gh.answer(failing, failing, failing, failing);
    const outcome = await postCommitStatus(client({ retries: 2 }), commit, finalStatus(succeeded, sha));
    expect(outcome).toMatchObject({ posted: false, state: 'success', status: 500 });
    expect(gh.requests).toHaveLength(3);
  });
});
