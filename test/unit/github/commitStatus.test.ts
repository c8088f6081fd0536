import { describe, expect, it } from 'vitest';
import {
  finalStatus,
  maxDescriptionLength,
  pendingStatus,
  statusContext,
  targetUrlFor,
} from '../../../lib/github/commitStatus';
import { githubFromEnv } from '../../../lib/github/githubFromEnv';
import { repositorySlug, servesRepository } from '../../../lib/github/repositorySlug';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { present } from '../../support/present';
import { summaryOf } from '../../support/reconcileSummary';

const sha = 'a'.repeat(40);
const gitTrack = { kind: 'GitTrack' as const, namespace: 'team-a', name: 'app' };

function summary(result: ReconcileSummary['result'], counts: Partial<ReconcileSummary['counts']> = {}) {
  return summaryOf({ track: gitTrack, result, commit: sha, counts });
}

describe('commit status bodies', () => {
  it('name the track in the context, without a namespace for a ClusterGitTrack', () => {
    expect(statusContext(gitTrack)).toBe('lightkeeper/GitTrack/team-a/app');
    expect(statusContext({ kind: 'ClusterGitTrack', name: 'crds' })).toBe('lightkeeper/ClusterGitTrack/crds');
  });

  it('map each result to a state and count what was done', () => {
    expect(pendingStatus(gitTrack)).toEqual({
      state: 'pending',
      context: 'lightkeeper/GitTrack/team-a/app',
      description: 'reconciling',
    });
    expect(finalStatus(summary('Succeeded', { applied: 3, pruned: 1 }), sha)).toEqual({
      state: 'success',
      context: 'lightkeeper/GitTrack/team-a/app',
      description: 'applied 3, pruned 1, failed 0',
    });
    expect(finalStatus(summary('Failed', { applied: 1, failed: 2 }), sha)).toMatchObject({
      state: 'failure',
      description: 'failed: applied 1, pruned 0, failed 2',
    });
    expect(finalStatus(summary('Aborted'), sha).state).toBe('error');
    expect(finalStatus(summary('Suspended'), sha).state).toBe('error');
    expect(finalStatus(summary('Continuing', { applied: 9 }), sha)).toMatchObject({
      state: 'pending',
      description: 'continuing: applied 9, pruned 0, failed 0',
    });
  });

  it('say when a later commit was applied instead of the pushed one', () => {
    expect(finalStatus(summary('Succeeded'), 'b'.repeat(40)).description).toBe(
      `at ${'a'.repeat(12)}: applied 0, pruned 0, failed 0`,
    );
  });

  it('keep the description within GitHub’s 140 characters', () => {
    const n = Number.MAX_SAFE_INTEGER;
    const counts = { applied: n, pruned: n, failed: n };
    for (const result of ['Succeeded', 'Failed', 'Continuing', 'Aborted', 'Suspended'] as const) {
      const { description } = finalStatus(summary(result, counts), 'b'.repeat(40));
      expect(description.length, description).toBeLessThanOrEqual(maxDescriptionLength);
      expect(description).toContain(`failed ${n}`);
    }
  });

  it('fill a target URL template, and add it only when configured', () => {
    expect(targetUrlFor('https://ci.example/{kind}/{namespace}/{name}?sha={sha}', gitTrack, sha)).toBe(
      `https://ci.example/GitTrack/team-a/app?sha=${sha}`,
    );
    expect(targetUrlFor(undefined, gitTrack, sha)).toBeUndefined();
    expect(pendingStatus(gitTrack, 'https://ci.example/x').target_url).toBe('https://ci.example/x');
  });
});

describe('repositorySlug', () => {
  it('reads owner and repo from every URL form', () => {
    for (const url of [
      'https://github.com/Acme/App.git',
      'git@github.com:acme/app.git',
      'ssh://git@github.com/acme/app',
      'https://ghe.example:8443/acme/app/',
    ]) {
      expect(repositorySlug(url), url).toMatchObject({ owner: 'acme', repo: 'app' });
    }
  });

  it('posts only to the API that serves the repository’s host', () => {
    const host = (url: string) => repositorySlug(url)?.host ?? '';
    expect(servesRepository('https://api.github.com', host('git@github.com:acme/app.git'))).toBe(true);
    expect(servesRepository('https://ghe.example/api/v3', host('https://ghe.example:8443/acme/app'))).toBe(
      true,
    );
    expect(servesRepository('https://api.github.com', host('https://gitlab.com/acme/app.git'))).toBe(false);
    expect(servesRepository('https://api.github.com', host('https://ghe.example/acme/app'))).toBe(false);
  });

  it('refuses what is not owner/repo', () => {
    expect(repositorySlug('https://gitlab.example/group/sub/app.git')).toBeUndefined();
    expect(repositorySlug('https://github.com/acme')).toBeUndefined();
    expect(repositorySlug('not a url')).toBeUndefined();
  });
});

describe('githubFromEnv', () => {
  it('posts nothing without a token, and says so once', async () => {
    let told = 0;
    const github = githubFromEnv(() => told++, {});
    expect(await github({})).toBeUndefined();
    expect(await github({})).toBeUndefined();
    expect(told).toBe(1);
  });

  it('takes the token from SSM (the context) and keeps one client per token', async () => {
    const github = githubFromEnv(() => {}, {
      GITHUB_TOKEN_SSM_PARAMETER: '/lightkeeper/dev/github-token',
      LIGHTKEEPER_STATUS_TARGET_URL: 'https://ci.example/{name}',
    });
    const first = present(await github({ githubToken: 'one' }), 'the poster for token one');
    expect(first.targetUrl).toBe('https://ci.example/{name}');
    expect((await github({ githubToken: 'one' }))?.client).toBe(first.client);
    expect(present(await github({ githubToken: 'two' }), 'the poster for token two').client).not.toBe(
      first.client,
    );
  });
});
