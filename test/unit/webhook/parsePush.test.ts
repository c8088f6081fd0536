import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../../lib/errors';
import { pushPayload } from '../../../lib/localstack/pushPayload';
import { parsePush } from '../../../lib/webhook/parsePush';

const after = 'a'.repeat(40);

describe('parsePush', () => {
  it('reads a real branch creation: every URL form, never trusting its commit list', () => {
    const push = parsePush(pushPayload('branch-created'));
    expect(push).toMatchObject({
      ref: 'refs/heads/master',
      after: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      created: true,
      deleted: false,
      defaultBranch: 'master',
      headCommitTime: '2019-05-15T15:19:25Z',
      touchedPaths: undefined,
    });
    expect(push.repositoryUrls).toEqual(
      expect.arrayContaining([
        'https://github.com/Codertocat/Hello-World.git',
        'git@github.com:Codertocat/Hello-World.git',
        'https://github.com/Codertocat/Hello-World',
        'git://github.com/Codertocat/Hello-World.git',
      ]),
    );
  });

  it('collects the paths an ordinary push touched', () => {
    const payload = pushPayload('branch-created', {
      after,
      touched: { added: ['app/a.yaml'], removed: ['app/b.yaml'], modified: ['README.md'] },
    });
    expect(parsePush(payload)).toMatchObject({
      after,
      created: false,
      touchedPaths: ['app/a.yaml', 'app/b.yaml', 'README.md'],
    });
  });

  it('reads real tag creations and deletions', () => {
    expect(parsePush(pushPayload('tag-created'))).toMatchObject({
      ref: 'refs/tags/simple-tag',
      created: true,
    });
    expect(parsePush(pushPayload('tag-deleted'))).toMatchObject({
      ref: 'refs/tags/simple-tag',
      deleted: true,
      after: '0000000000000000000000000000000000000000',
    });
  });

  it('does not trust a commit list that may be truncated or incomplete', () => {
    const ordinary = () => pushPayload('branch-created', { touched: { modified: ['app/a.yaml'] } });
    const cases: Array<[string, (p: Record<string, unknown>) => void]> = [
      ['missing commits', (p) => delete p.commits],
      ['no commits', (p) => (p.commits = [])],
      ['2048 commits (the cap)', (p) => (p.commits = Array(2048).fill((p.commits as unknown[])[0]))],
      ['size above the listed count', (p) => (p.size = 21)],
      [
        'a commit without file lists',
        (p) => delete (p.commits as Array<Record<string, unknown>>)[0]?.modified,
      ],
      [
        'a capped file list',
        (p) => ((p.commits as Array<Record<string, unknown>>)[0]!.added = Array(3000).fill('x')),
      ],
      ['a force push', (p) => (p.forced = true)],
    ];
    for (const [what, change] of cases) {
      const payload = ordinary() as unknown as Record<string, unknown>;
      change(payload);
      expect(parsePush(payload).touchedPaths, what).toBeUndefined();
    }
    expect(parsePush(ordinary()).touchedPaths).toEqual(['app/a.yaml']);
  });

  it('refuses payloads that are not pushes', () => {
    for (const payload of [null, [], 'push', {}, { ref: 'refs/heads/x', before: after, after }]) {
      expect(() => parsePush(payload)).toThrow(PayloadError);
    }
    const noUrls = pushPayload('branch-created') as unknown as { repository: Record<string, unknown> };
    noUrls.repository = { name: 'Hello-World' };
    expect(() => parsePush(noUrls)).toThrow(/no repository URL/);
  });
});
