import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createClusterGitTrack, getLive, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// spec.helm.crds on the real control plane: a hand-made chart whose crds/ definition gains a field
// between two commits. CreateReplace (default) creates and updates it; Create creates it and never
// updates it; Skip never applies it. None of them deletes it.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const crds = { apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions' };

function crd(group: string, fields: string[]) {
  const properties = Object.fromEntries(fields.map((f) => [f, { type: 'string' }]));
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } },
          },
        },
      ],
    },
  };
}

const chart = (group: string, fields: string[]) => ({
  'widgets/Chart.yaml': 'apiVersion: v2\nname: widgets\nversion: 0.1.0\n',
  'widgets/crds/widget.yaml': yamlOf(crd(group, fields)),
  'widgets/templates/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\ndata:\n  fields: {{ .Values.fields | quote }}\n',
  'widgets/values.yaml': `fields: ${fields.join(',')}\n`,
});

interface Crd {
  metadata: { annotations?: Record<string, string> };
  spec: {
    versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: object } } } } }>;
  };
}
const fieldsOf = (live: unknown) =>
  Object.keys((live as Crd).spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties ?? {}).sort();

async function twoCommits(policy: 'CreateReplace' | 'Create' | 'Skip' | undefined) {
  const ns = await freshNamespace(client, 'helm-crds');
  const group = `${uniqueName('w')}.example.com`;
  const repo = createRepo(server, uniqueName('helm-crds'));
  commit(repo, chart(group, ['size']), 'widgets chart');
  const name = uniqueName('widgets');
  const helm = { chart: 'widgets', targetNamespace: ns, ...(policy ? { crds: policy } : {}) };
  const track = await createClusterGitTrack(client, { repository: repo.url, reference: 'main', helm }, name);
  const first = await e.run(track);
  expect(first.errors).toEqual([]);
  expect(first.result).toBe('Succeeded');
  const created = await getLive(client, crds, `widgets.${group}`);
  commit(repo, chart(group, ['color', 'size']), 'widgets gain a color');
  const second = await e.run(track);
  expect(second.errors).toEqual([]);
  expect(second.result).toBe('Succeeded');
  // The chart's own objects follow every commit whatever the policy.
  const cm = await getLive(client, { apiVersion: 'v1', plural: 'configmaps' }, `${name}-config`, ns);
  expect((cm as unknown as { data: Record<string, string> }).data.fields).toBe('color,size');
  return { group, created, first, second, after: await getLive(client, crds, `widgets.${group}`) };
}

describe('spec.helm.crds', () => {
  it('CreateReplace (the default) creates the definition and updates it with the chart, never pruned', async () => {
    const { group, created, after, second } = await twoCommits(undefined);
    expect(fieldsOf(created)).toEqual(['size']);
    expect(fieldsOf(after)).toEqual(['color', 'size']);
    expect(after?.metadata.annotations).toMatchObject({ 'lightkeeper.dev/prune': 'disabled' });
    expect(second.changes).toContainEqual({
      subject: `CustomResourceDefinition.apiextensions.k8s.io/widgets.${group}`,
      action: 'configured',
    });
  });

  it('Create creates a missing definition and never updates it', async () => {
    const { created, after, second } = await twoCommits('Create');
    expect(fieldsOf(created)).toEqual(['size']);
    expect(created?.metadata.annotations).toMatchObject({ 'lightkeeper.dev/update-strategy': 'Never' });
    expect(fieldsOf(after)).toEqual(['size']);
    expect(after?.metadata.resourceVersion).toBe(created?.metadata.resourceVersion);
    expect(second.changes.filter((c) => c.subject.startsWith('CustomResourceDefinition'))).toEqual([
      expect.objectContaining({
        action: 'skipped',
        message: 'lightkeeper.dev/update-strategy: Never; it exists',
      }),
    ]);
  });

  it('Skip never applies the definition', async () => {
    const { created, after, first } = await twoCommits('Skip');
    expect(created).toBeUndefined();
    expect(after).toBeUndefined();
    expect(first.changes.some((c) => c.subject.startsWith('CustomResourceDefinition'))).toBe(false);
  });

  it("applies the chart's crds/ before its pre-install hooks, as Helm does: a hook may be one of their kind", async () => {
    const ns = await freshNamespace(client, 'helm-crd-hook');
    const group = `${uniqueName('w')}.example.com`;
    const repo = createRepo(server, uniqueName('helm-crd-hook'));
    commit(
      repo,
      {
        ...chart(group, ['size']),
        'widgets/templates/hook.yaml': `apiVersion: ${group}/v1\nkind: Widget\nmetadata:\n  name: first\n  annotations:\n    helm.sh/hook: pre-install\nspec:\n  size: small\n`,
      },
      'a widget made by a pre-install hook',
    );
    const name = uniqueName('widgets');
    const helm = { chart: 'widgets', targetNamespace: ns, hooks: 'Run' };
    const track = await createClusterGitTrack(
      client,
      { repository: repo.url, reference: 'main', helm },
      name,
    );
    const applied = await e.run(track);
    expect(applied.errors).toEqual([]);
    expect(applied.result).toBe('Succeeded');
    expect(
      await getLive(client, { apiVersion: `${group}/v1`, plural: 'widgets' }, 'first', ns),
    ).toBeDefined();
  });
});
