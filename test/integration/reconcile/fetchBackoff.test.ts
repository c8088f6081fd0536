import { describe, expect, it } from 'vitest';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { clusterFailure } from '../../../lib/lambda/clusterFailure';
import { reconcileInvocation } from '../../../lib/lambda/reconcileInvocation';
import { startSweep } from '../../../lib/lambda/startSweep';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { createTelemetry } from '../../../lib/observability/telemetry';
import { fetchBackoffMessage } from '../../../lib/reconcile/fetchBackoff';
import type { FetchBackoff } from '../../../lib/track/trackObject';
import type { TrackRef } from '../../../lib/track/trackRef';
import { listTracks } from '../../../lib/webhook/listTracks';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  createGitTrack,
  includeNamespaced,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { refusedUrl } from '../../support/stallingServer';

// A track whose git server fails is the track's failure: the reconcile function does not fail
// (so Lambda does not retry it), the track's status records the backoff in the run's one status
// write, the drift sweep leaves it alone until then, and a run that fetches clears it.

let h: EngineHarness;
useEngineHarness((harness) => {
  h = harness;
});

const backoffOf = async (track: TrackRef) => {
  const t = await h.client.get<{ status?: { fetchBackoff?: FetchBackoff } }>(
    resourcePath({ ...lightkeeperResources.GitTrack, namespace: track.namespace, name: track.name }),
  );
  return t.status?.fetchBackoff;
};

describe('a track whose git server fails', () => {
  it('is backed off by the drift sweep, never retried as a cluster failure, and cleared by a fetch', async () => {
    const { client, server, e } = h;
    const ns = await freshNamespace(client, 'backoff');
    const track = await createGitTrack(client, ns, {
      repository: await refusedUrl('/tenant/refused.git'),
      reference: 'main',
    });
    const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled', namespace: ns } as const;
    const sweep = async (now?: Date) => {
      const started: string[] = [];
      const result = await startSweep(
        await listTracks(client, config),
        async (event) => void started.push(event.track.name),
        { now },
      );
      return { started, result };
    };

    const before = Date.now();
    const first = await e.run(track);
    expect(first.result).toBe('Failed');
    expect(first.writes.objects).toBe(0);
    expect(first.fetchBackoff?.failures).toBe(1);
    // Even had an API request failed during the run, the function would not throw for it.
    expect(clusterFailure(first, 3)).toBeUndefined();
    const recorded = await backoffOf(track);
    expect(recorded).toEqual(first.fetchBackoff);
    const wait = Date.parse(recorded?.retryAfter ?? '') - before;
    expect(wait).toBeGreaterThanOrEqual(5 * 60_000);
    expect(wait).toBeLessThan(6 * 60_000);

    const second = await e.run(track, { reason: 'push' });
    expect(second.fetchBackoff?.failures).toBe(2);
    const status = await trackStatus(client, track);
    const ready = status.conditions.find((c) => c.type === 'Ready');
    expect(ready?.message).toContain(
      `fetch failed 2 times in a row; the sweep retries after ${second.fetchBackoff?.retryAfter}`,
    );
    expect(status.conditions.find((c) => c.type === 'Fetched')).toMatchObject({ status: 'False' });

    // The drift sweep leaves it alone, and says so; once retryAfter is (nearly) reached it is due.
    const held = await sweep();
    expect(held.started).toEqual([]);
    expect(held.result.backedOff).toEqual([
      { track, failures: 2, retryAfter: second.fetchBackoff?.retryAfter },
    ]);
    // A drift check the sweep started before the backoff was written stands down with one read of
    // the track (whether it waited for the failing run's lease or started after it): no fetch.
    const driftCheck = await reconcileInvocation(
      {
        client,
        config: includeNamespaced,
        github: undefined,
        settings: { leaseNamespace: ns, leaseTtlSeconds: 30, reserveMs: 0, timeBudget: { marginMs: 0 } },
        ...createTelemetry('reconcile'),
      },
      { track, mode: 'drift', reason: 'sweep' },
      { awsRequestId: uniqueName('drift') },
    );
    expect(driftCheck).toEqual({
      outcome: 'served',
      track,
      reason: `backed off: ${second.fetchBackoff && fetchBackoffMessage(second.fetchBackoff)}`,
    });
    expect(await backoffOf(track)).toEqual(second.fetchBackoff);
    const later = new Date(Date.parse(second.fetchBackoff?.retryAfter ?? '') + 1000);
    expect((await sweep(later)).started).toEqual([track.name]);

    // The tenant points it at a server that answers: the run fetches, and the backoff is gone.
    const repo = createRepo(server, uniqueName('backoff'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('after-backoff')) }, 'one');
    await patchTrackSpec(client, track, { repository: repo.url });
    const fetched = await e.run(track);
    expect(fetched.result).toBe('Succeeded');
    expect(fetched.fetchBackoff).toBeUndefined();
    expect(await backoffOf(track)).toBeUndefined();
    expect((await sweep()).started).toEqual([track.name]);
    // A no-op reconcile still writes no object.
    const noop = await e.run(track);
    expect(noop.writes.objects).toBe(0);
  });
});
