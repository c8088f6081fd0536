import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { parseManifests } from '../../../lib/manifests';
import type { SourceOutcome } from '../../../lib/reconcile/outcomes';
import type { Source } from '../../../lib/reconcile/reconcileDeps';
import { freshNamespace, kubeClient } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  engine,
  getLive,
  trackStatus,
  yamlOf,
} from '../../support/engine';

// The engine's decisions with its source injected (ReconcileDeps.source), as isomorphic-git takes its
// I/O: no git server, the real API server. What the source says decides what is applied and pruned.

let client: KubeClient;
beforeAll(async () => {
  client = await kubeClient();
});
afterAll(() => client.close());

const sha = (c: string) => c.repeat(40);

/** What a source that read `files` at `commit` returns. */
function read(commit: string, files: Record<string, string>): SourceOutcome {
  const parsed = parseManifests(
    Object.entries(files).map(([path, text]) => ({
      path,
      content: Buffer.from(text),
      oid: `${commit}:${path}`,
    })),
  );
  return {
    state: 'read',
    commit,
    files: Object.keys(files).length,
    manifests: parsed.manifests,
    errors: parsed.errors.map((e) => e.message),
  };
}

describe('a reconcile with an injected source', () => {
  it('applies what it read, applies nothing of a commit that does not parse, and backs off a failed fetch', async () => {
    const ns = await freshNamespace(client, 'source');
    const track = await createGitTrack(client, ns, {
      repository: 'https://git.invalid/app.git',
      reference: 'main',
    });
    let next: SourceOutcome = read(sha('a'), { 'a.yaml': yamlOf(configMap('a'), configMap('b')) });
    const asked: string[] = [];
    const source: Source = async (request) => {
      asked.push(request.reference);
      if (next.state !== 'unfetched') request.onFetched(next.commit);
      return next;
    };
    const e = engine(client, { source });
    try {
      expect(await e.run(track)).toMatchObject({
        result: 'Succeeded',
        commit: sha('a'),
        counts: { applied: 2 },
      });
      expect(asked).toEqual(['main']);

      next = read(sha('b'), { 'a.yaml': yamlOf(configMap('a')), 'bad.yaml': 'kind: [unclosed\n' });
      const broken = await e.run(track);
      expect(broken).toMatchObject({ result: 'Failed', commit: sha('b'), deployed: { extent: 'broken' } });
      expect(await getLive(client, configMaps, 'b', ns)).toBeTruthy();
      expect((await trackStatus(client, track)).lastAppliedCommit).toBe(sha('a'));

      next = { state: 'unfetched', error: 'git.invalid: connection refused', gitFailure: true };
      const failed = await e.run(track);
      expect(failed).toMatchObject({ result: 'Failed', errors: ['git.invalid: connection refused'] });
      expect(failed.fetchBackoff?.failures).toBe(1);
      expect(await getLive(client, configMaps, 'b', ns)).toBeTruthy();

      next = read(sha('c'), { 'a.yaml': yamlOf(configMap('a')) });
      expect(await e.run(track)).toMatchObject({
        result: 'Succeeded',
        commit: sha('c'),
        counts: { pruned: 1 },
      });
      expect(await getLive(client, configMaps, 'b', ns)).toBeUndefined();
      const status = (await trackStatus(client, track)) as {
        lastAppliedCommit?: string;
        fetchBackoff?: unknown;
      };
      expect(status.lastAppliedCommit).toBe(sha('c'));
      expect(status.fetchBackoff).toBeUndefined();
    } finally {
      e.dispose();
    }
  });
});
