import { describe, expect, it } from 'vitest';
import { pushOutcome } from '../../../lib/localstack/pushOutcome';

const commit = 'a'.repeat(40);
const url = 'http://127.0.0.1:4000/gitops.git';
const judge = (status: number, body: unknown) => pushOutcome({ commit, status, body }, url);

describe('pushOutcome', () => {
  it('accepts a delivery that started reconciles, naming them and the tracks skipped', () => {
    expect(
      judge(202, {
        triggered: ['GitTrack/team-a/team-a'],
        skipped: [{ track: 'ClusterGitTrack/demo', reason: 'no pushed file under lightkeeper-demo/' }],
      }),
    ).toEqual({
      kind: 'triggered',
      accepted: true,
      message: `pushed ${commit}: triggered GitTrack/team-a/team-a; skipped ClusterGitTrack/demo (no pushed file under lightkeeper-demo/)`,
    });
  });

  it('accepts a delivery every following track skipped for a reason', () => {
    const outcome = judge(202, {
      triggered: [],
      skipped: [{ track: 'ClusterGitTrack/demo', reason: 'suspended' }],
    });
    expect(outcome).toMatchObject({ kind: 'skipped', accepted: true });
    expect(outcome.message).toContain('no track reconciles it: ClusterGitTrack/demo (suspended)');
  });

  it('refuses a delivery no track follows', () => {
    expect(judge(202, { triggered: [], skipped: [] })).toMatchObject({
      kind: 'unmatched',
      accepted: false,
      message: expect.stringContaining(`no track follows ${url}`),
    });
  });

  it('reports a refusal with the webhook’s reason', () => {
    expect(judge(401, { error: 'signature mismatch' })).toMatchObject({
      kind: 'refused',
      accepted: false,
      message: expect.stringMatching(/^pushed a{40}: refused \(401\): signature mismatch \(is --secret/),
    });
    expect(judge(413, { error: 'body of 6000000 bytes exceeds 5242880' }).message).toContain(
      'refused (413): body of 6000000 bytes exceeds 5242880',
    );
    expect(judge(202, { ignored: 'refs/heads/x was deleted' })).toMatchObject({ accepted: false });
  });

  it('reports a function error even when the answer is 200', () => {
    expect(judge(200, { errorMessage: "Error: Cannot find module '/x/webhook.mjs'" })).toEqual({
      kind: 'failed',
      accepted: false,
      message: `pushed ${commit}: the webhook function failed (200): Error: Cannot find module '/x/webhook.mjs'`,
    });
  });

  it('reports reconciles that could not be started, and anything else it did not expect', () => {
    expect(
      judge(500, {
        error: 'some reconciles could not be started',
        triggered: ['ClusterGitTrack/demo'],
        failed: ['GitTrack/team-a/team-a'],
      }).message,
    ).toBe(
      `pushed ${commit}: failed (500): some reconciles could not be started: GitTrack/team-a/team-a; started ClusterGitTrack/demo`,
    );
    expect(judge(502, 'Bad Gateway')).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('(502): Bad Gateway'),
    });
  });
});
