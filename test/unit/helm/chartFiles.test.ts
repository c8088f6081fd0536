import { describe, expect, it } from 'vitest';
import { chartManifestFiles, skippedHooks } from '../../../lib/helm/chartFiles';
import type { ChartRender } from '../../../lib/helm/runHelmRender';
import { parseManifests } from '../../../lib/manifests';

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const render: ChartRender = {
  crds: [
    {
      path: 'app/crds/widget.yaml',
      yaml: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n',
    },
  ],
  resources: [
    { origin: { path: 'app/templates/a.yaml' }, yaml: cm('a1') },
    { origin: { path: 'app/templates/b.yaml' }, yaml: cm('b') },
    { origin: { path: 'app/templates/a.yaml' }, yaml: cm('a2') },
  ],
  hooks: [
    {
      path: 'app/templates/job.yaml',
      kind: 'Job',
      name: 'migrate',
      events: ['pre-install', 'pre-upgrade'],
      weight: -5,
      deletePolicies: ['before-hook-creation'],
      yaml: 'kind: Job',
    },
  ],
};

describe('chartManifestFiles', () => {
  it("names each object by its template, the chart's crds/ first, hooks left out", () => {
    const files = chartManifestFiles(render);
    expect(files.map((f) => f.path)).toEqual([
      'app/crds/widget.yaml',
      'app/templates/a.yaml',
      'app/templates/b.yaml',
    ]);
    const { manifests, errors } = parseManifests(files);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => `${m.source.path} ${m.object.kind}/${m.object.metadata.name}`)).toEqual([
      'app/crds/widget.yaml CustomResourceDefinition/widgets.example.com',
      'app/templates/a.yaml ConfigMap/a1',
      'app/templates/a.yaml ConfigMap/a2',
      'app/templates/b.yaml ConfigMap/b',
    ]);
  });

  it('names the hooks it leaves out', () => {
    expect(skippedHooks(render.hooks)).toEqual([
      { subject: 'Job/migrate', path: 'app/templates/job.yaml', events: ['pre-install', 'pre-upgrade'] },
    ]);
  });

  it('leaves the crds/ out under Skip, and marks them update-strategy Never under Create', () => {
    expect(chartManifestFiles(render, 'Skip').map((f) => f.path)).toEqual([
      'app/templates/a.yaml',
      'app/templates/b.yaml',
    ]);
    const [crd] = parseManifests(chartManifestFiles(render, 'Create')).manifests;
    expect(crd?.object.metadata.annotations).toEqual({ 'lightkeeper.dev/update-strategy': 'Never' });
    const [replaced] = parseManifests(chartManifestFiles(render, 'CreateReplace')).manifests;
    expect(replaced?.object.metadata.annotations).toBeUndefined();
  });
});
