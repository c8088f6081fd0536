import { afterAll, beforeAll } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { eventually, freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, trackStatus } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createRole, grant } from '../../support/tenancy';

// A custom resource with a status subresource, whose status the test writes as its operator would,
// and the harness the health tests share around it.

export interface WidgetKind {
  group: string;
  apiVersion: string;
  plural: 'widgets';
}

export async function installWidgetCrd(client: KubeClient): Promise<WidgetKind> {
  const group = `${uniqueName('health')}.example.com`;
  await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    },
  });
  const kind: WidgetKind = { group, apiVersion: `${group}/v1`, plural: 'widgets' };
  await eventually('the Widget CRD is served', async () => {
    const list = await client.find(resourcePath({ apiVersion: kind.apiVersion, plural: 'widgets' }));
    return list !== undefined;
  });
  return kind;
}

export const removeWidgetCrd = (client: KubeClient, kind: WidgetKind) =>
  client.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${kind.group}`);

/** Lets the namespace's default service account (a GitTrack's identity) manage Widgets there. */
export async function allowWidgets(client: KubeClient, kind: WidgetKind, namespace: string) {
  await createRole(client, namespace, 'widgets', [
    { apiGroups: [kind.group], resources: ['widgets'], verbs: ['*'] },
  ]);
  await grant(client, namespace, { role: 'widgets' });
}

export const widget = (kind: WidgetKind, name: string, size = 1) => ({
  apiVersion: kind.apiVersion,
  kind: 'Widget',
  metadata: { name },
  spec: { size },
});

/** Writes a Widget's status as its controller would: a Ready condition and the generation it saw. */
export async function setWidgetStatus(
  client: KubeClient,
  kind: WidgetKind,
  namespace: string,
  name: string,
  ready: 'True' | 'False',
  observedGeneration = 1,
) {
  await client.request(
    'PATCH',
    resourcePath({ apiVersion: kind.apiVersion, plural: 'widgets', namespace, name, subresource: 'status' }),
    {
      body: {
        status: {
          observedGeneration,
          conditions: [
            {
              type: 'Ready',
              status: ready,
              reason: ready === 'True' ? 'Provisioned' : 'Provisioning',
              message: ready === 'True' ? 'bucket ready' : 'waiting for the bucket',
            },
          ],
        },
      },
      contentType: 'application/merge-patch+json',
    },
  );
}

interface TrackerView {
  spec: { target: { kind: string; name: string } };
  status?: { conditions?: Array<{ type: string; status: string; reason: string; message: string }> };
}

/** The `Healthy` condition of the GitTrackObject whose child is `kind/name`. */
export async function trackerHealth(client: KubeClient, namespace: string, kindName: string, name: string) {
  const list = await client.get<{ items: TrackerView[] }>(
    resourcePath({ ...lightkeeperResources.GitTrackObject, namespace }),
  );
  const tracker = list.items.find((t) => t.spec.target.kind === kindName && t.spec.target.name === name);
  return tracker?.status?.conditions?.find((c) => c.type === 'Healthy');
}

export interface WidgetHarness extends EngineHarness {
  widgets: WidgetKind;
}

/** For one test file: the engine harness and a Widget CRD of its own, installed before the tests and removed after. */
export function useWidgetHarness(receive: (harness: WidgetHarness) => void): void {
  let engine: EngineHarness | undefined;
  let widgets: WidgetKind | undefined;
  useEngineHarness((h) => {
    engine = h;
  });
  beforeAll(async () => {
    if (!engine) throw new Error('the engine harness did not start');
    widgets = await installWidgetCrd(engine.client);
    receive({ ...engine, widgets });
  });
  afterAll(async () => {
    if (engine && widgets) await removeWidgetCrd(engine.client, widgets);
  });
}

/**
 * A GitTrack in a fresh namespace whose service account may manage Widgets, of a new repository
 * with `files` committed on main.
 */
export async function widgetGitTrack(
  h: { client: KubeClient; server: GitServer; widgets: WidgetKind },
  prefix: string,
  files: Record<string, string>,
  spec: Record<string, unknown> = {},
) {
  const ns = await freshNamespace(h.client, prefix);
  await allowWidgets(h.client, h.widgets, ns);
  const repo = createRepo(h.server, uniqueName(prefix));
  commit(repo, files, 'first');
  const track = await createGitTrack(h.client, ns, { repository: repo.url, reference: 'main', ...spec });
  return { ns, repo, track };
}

/** The track's own `Healthy` condition. */
export const trackHealthy = async (client: KubeClient, track: Parameters<typeof trackStatus>[1]) =>
  (await trackStatus(client, track)).conditions.find((c) => c.type === 'Healthy');
