import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, yamlOf } from '../../support/engine';
import type { EngineHarness } from '../../support/engineHarness';
import { trackerHealth, useWidgetHarness, type WidgetKind, widget, widgetGitTrack } from './widgets';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
let widgets: WidgetKind;
useWidgetHarness((h) => ({ client, server, e, widgets } = h));

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, stringData: { t: 'x' } };
const service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
};
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'busybox' }] },
    },
  },
};

interface Tracker {
  metadata: { name: string };
  spec: { target: { kind: string; name: string } };
}

async function clearTrackerStatus(ns: string, kind: string, name: string) {
  const list = await client.get<{ items: Tracker[] }>(
    resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
  );
  const tracker = list.items.find((t) => t.spec.target.kind === kind && t.spec.target.name === name);
  if (!tracker) throw new Error(`no tracking object for ${kind}/${name}`);
  await client.request(
    'PATCH',
    resourcePath({
      ...lightkeeperResources.GitTrackObject,
      namespace: ns,
      name: tracker.metadata.name,
    }),
    { body: { status: null }, contentType: 'application/merge-patch+json' },
  );
}

describe('health known at apply', () => {
  it('a new child healthy by existence costs no health write; one still rolling out still gets its verdict', async () => {
    const { ns, track } = await widgetGitTrack({ client, server, widgets }, 'healthapply', {
      'a.yaml': yamlOf(configMap('plain'), secret, service, widget(widgets, 'w'), deployment),
    });

    const first = await e.run(track);
    expect(first.result).toBe('Succeeded');
    expect(first.changes.every((c) => c.action === 'created')).toBe(true);
    // Per new child of a GitTrack: create its tracking object with its status (InSync and, when the
    // manifest settles it, Healthy), ask whether the track may apply and delete it, apply it; the answer
    // agrees, so nothing more. The Deployment is recorded Progressing at its creation; the health
    // step writes it only if it has rolled out already (0 replicas: it may have), never for a
    // progress message alone.
    expect(first.writes.objects).toBe(5 * 4);
    expect(first.writes.health).toBeLessThanOrEqual(1);
    for (const [kind, name, message] of [
      ['ConfigMap', 'plain', 'Resource is always ready'],
      ['Secret', 'token', 'Resource is always ready'],
      ['Service', 'web', 'Service is ready'],
      ['Widget', 'w', 'Resource is current'],
    ] as const) {
      expect(await trackerHealth(client, ns, kind, name), `${kind}/${name}`).toMatchObject({
        status: 'True',
        message,
      });
    }
    expect(await trackerHealth(client, ns, 'Deployment', 'web')).toBeDefined();

    // The verdicts written at apply are the health step's own: a sweep finds nothing to rewrite.
    const sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep.changes.every((c) => c.action === 'unchanged')).toBe(true);
    // Only the Deployment's verdict may move (the deployment controller works on it meanwhile).
    expect(sweep.writes.objects).toBe(0);
    expect(sweep.writes.health).toBeLessThanOrEqual(1);
  });

  it('a crash after the child is applied and before its status is written is repaired in one status write', async () => {
    const ns = await freshNamespace(client, 'healthapply');
    const repo = createRepo(server, uniqueName('healthapply'));
    commit(repo, { 'a.yaml': yamlOf(configMap('plain'), service) }, 'first');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');

    // As a run killed between the child's apply and its status write leaves a tracking object that
    // was not created with its record (one from before, being updated): no status at all.
    await clearTrackerStatus(ns, 'ConfigMap', 'plain');
    expect(await trackerHealth(client, ns, 'ConfigMap', 'plain')).toBeUndefined();
    const repair = await e.run(track);
    expect(repair.result).toBe('Succeeded');
    expect(repair.changes.find((c) => c.subject.includes('ConfigMap'))?.action).toBe('configured');
    // The child re-applied, its status written with InSync and Healthy together; nothing else.
    expect(repair.writes).toMatchObject({ objects: 2, health: 0 });
    expect(await trackerHealth(client, ns, 'ConfigMap', 'plain')).toMatchObject({ status: 'True' });
    expect((await e.run(track)).writes).toMatchObject({ objects: 0, health: 0 });
  });
});
