import { describe, expect, it } from 'vitest';
import { digestOf, parseManifests } from '../../../lib/manifests';
import { ignoreFieldsAnnotation } from '../../../lib/manifests/metadataKeys';
import type { TrackOwner } from '../../../lib/ownership/ownershipTable';
import { type PlanOptions, planManifests } from '../../../lib/plan/planManifests';
import { keyedDigest } from '../../../lib/plan/plannedDigest';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';
import { coreKinds, discoveryOf } from '../../support/servedKinds';

const config: DeploymentConfig = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' };
const track: TrackOwner = {
  kind: 'GitTrack',
  apiVersion: 'lightkeeper.dev/v1alpha1',
  name: 'shop',
  uid: 'gt-uid',
  namespace: 'team-a',
};
const served = coreKinds;
const discovery = discoveryOf(served);
const options: PlanOptions = { track, config, discovery, ignoreRules: [], digestKey: undefined };

const plan = (yaml: string, more: Partial<PlanOptions> = {}) => {
  const { manifests, errors } = parseManifests([{ path: 'app.yaml', content: yaml }]);
  expect(errors).toEqual([]);
  return planManifests(manifests, { ...options, ...more });
};

const configMap = (name: string, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}data:\n  a: "1"\n`;

describe('planManifests', () => {
  it('places each kind where it is served or defined in the commit, its namespace defaulted', () => {
    const platform: TrackOwner = {
      kind: 'ClusterGitTrack',
      apiVersion: 'lightkeeper.dev/v1alpha1',
      name: 'platform',
      uid: 'cgt-uid',
      defaultNamespace: 'team-a',
    };
    const { planned, failed, ignored } = plan(
      `${configMap('c')}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Widget, plural: widgets}\n  versions: [{name: v1}]\n`,
      { track: platform },
    );
    expect(failed).toEqual([]);
    expect(ignored).toEqual([]);
    expect(planned.map((p) => [p.subject, p.stage, p.resource.plural, p.manifest.ref.namespace])).toEqual([
      ['ConfigMap/team-a/c', 'resources', 'configmaps', 'team-a'],
      ['Widget.example.com/team-a/w', 'resources', 'widgets', 'team-a'],
      [
        'CustomResourceDefinition.apiextensions.k8s.io/widgets.example.com',
        'definitions',
        'customresourcedefinitions',
        undefined,
      ],
    ]);
    expect(planned[0]?.manifest.object.metadata.namespace).toBe('team-a');
  });

  it('fails a kind nobody serves and leaves to others what the ownership table ignores', () => {
    const { planned, failed, ignored } = plan(
      'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: other\n',
    );
    expect(planned).toEqual([]);
    expect(failed).toEqual([
      {
        subject: 'Gadget.example.com/g',
        path: 'app.yaml',
        message:
          'app.yaml:1: Gadget.example.com/g: the API server does not serve Gadget in example.com/v1, and no CustomResourceDefinition in this commit defines it',
      },
    ]);
    expect(ignored).toHaveLength(1);
    expect(ignored[0]).toMatchObject({ path: 'app.yaml', object: 'Namespace/other' });
  });

  it('keeps the first of two objects that namespace defaulting makes one, and fails the other', () => {
    const { planned, failed } = plan(`${configMap('c')}---\n${configMap('c', '  namespace: team-a\n')}`);
    expect(planned.map((p) => [p.subject, p.manifest.source.line])).toEqual([['ConfigMap/team-a/c', 1]]);
    expect(failed.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^app.yaml:\d+ \(ConfigMap\/team-a\/c\): the same object is also defined at app.yaml:1/,
      ),
    ]);
  });

  it('computes each digest once: keyed, covering what is ignored', () => {
    const key = Buffer.alloc(32, 1);
    const [plain] = plan(configMap('c')).planned;
    const [keyed] = plan(configMap('c'), { digestKey: key }).planned;
    expect(plain?.digest).toBe(digestOf(plain?.manifest.object ?? {}));
    expect(keyed?.digest).toBe(keyedDigest(key, plain?.digest ?? ''));
    expect(plain?.ignore).toBeUndefined();
    const rule = { target: { kind: 'ConfigMap' }, pointers: [['data', 'a']] };
    const [ignoring] = plan(configMap('c'), { digestKey: key, ignoreRules: [rule] }).planned;
    expect(ignoring?.ignore).toEqual([['data', 'a']]);
    expect(ignoring?.digest).not.toBe(keyed?.digest);
  });
});

describe(ignoreFieldsAnnotation, () => {
  const annotated = (value: string) =>
    configMap('c', `  annotations:\n    ${ignoreFieldsAnnotation}: "${value}"\n`);

  it('adds its pointers to the rules matching the object, each once', () => {
    const rule = { target: { name: 'c' }, pointers: [['data', 'a']] };
    const [p] = plan(annotated(' /data/a , /data/b~1c '), { ignoreRules: [rule] }).planned;
    expect(p?.ignore).toEqual([
      ['data', 'a'],
      ['data', 'b/c'],
    ]);
  });

  it('fails only its object, naming file and line, after the other failures', () => {
    const result = plan(
      `${annotated('data/a')}---\n${configMap('d')}---\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n`,
    );
    expect(result.planned.map((p) => p.subject)).toEqual(['ConfigMap/team-a/d']);
    expect(result.failed.map((f) => f.subject)).toEqual(['Gadget.example.com/g', 'ConfigMap/team-a/c']);
    expect(result.failed[1]).toEqual({
      subject: 'ConfigMap/team-a/c',
      path: 'app.yaml',
      message: `app.yaml:1 (ConfigMap/team-a/c): ${ignoreFieldsAnnotation}: "data/a" does not start with /`,
    });
  });
});
