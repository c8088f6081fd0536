import { describe, expect, it } from 'vitest';
import { ownsManifestFields } from '../../../lib/apply/ownsManifestFields';
import type { Manifest } from '../../../lib/manifests';

const manifest = (object: Record<string, unknown>) => ({ manifest: { object } as unknown as Manifest });
const live = (fieldsV1: unknown, manager = 'lightkeeper', operation = 'Apply') => ({
  metadata: { managedFields: [{ manager, operation, fieldsV1 }] },
});

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' }, creationTimestamp: null },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:1',
            args: ['-a', '-b'],
            ports: [{ containerPort: 80 }],
            resources: {},
          },
        ],
      },
    },
  },
  status: { replicas: 1 },
};

// As kube-apiserver v1.37 records a server-side apply of `deployment` (protocol defaulted in the key).
const fields = () => ({
  'f:metadata': { 'f:labels': { 'f:app': {} } },
  'f:spec': {
    'f:replicas': {},
    'f:selector': {},
    'f:template': {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"web"}': {
            '.': {},
            'f:args': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
          },
        },
      },
    },
  },
});

describe('ownsManifestFields', () => {
  it('is true right after an apply: keyed and atomic lists, atomic maps, defaulted keys, server fields', () => {
    expect(ownsManifestFields(live(fields()), manifest(deployment))).toBe(true);
  });

  it('is false once a field moved to another manager or was removed', () => {
    const taken = fields();
    delete (taken['f:spec'] as Record<string, unknown>)['f:replicas'];
    expect(ownsManifestFields(live(taken), manifest(deployment))).toBe(false);
    const noPort = fields();
    const container = noPort['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}'] as Record<
      string,
      unknown
    >;
    delete container['f:ports'];
    expect(ownsManifestFields(live(noPort), manifest(deployment))).toBe(false);
    // The server drops a node once nothing under it is ours.
    const { 'f:metadata': _, ...noLabel } = fields();
    expect(ownsManifestFields(live(noLabel), manifest(deployment))).toBe(false);
  });

  it('matches set lists by value', () => {
    const withFinalizers = { ...deployment, metadata: { ...deployment.metadata, finalizers: ['a/b'] } };
    const set = {
      ...fields(),
      'f:metadata': { 'f:labels': { 'f:app': {} }, 'f:finalizers': { '.': {}, 'v:"a/b"': {} } },
    };
    expect(ownsManifestFields(live(set), manifest(withFinalizers))).toBe(true);
    const other = {
      ...set,
      'f:metadata': { ...set['f:metadata'], 'f:finalizers': { '.': {}, 'v:"c/d"': {} } },
    };
    expect(ownsManifestFields(live(other), manifest(withFinalizers))).toBe(false);
  });

  it('leaves ignored fields out', () => {
    const taken = fields();
    delete (taken['f:spec'] as Record<string, unknown>)['f:replicas'];
    expect(ownsManifestFields(live(taken), { ...manifest(deployment), ignore: [['spec', 'replicas']] })).toBe(
      true,
    );
  });

  it('is false when we own nothing, or only through another operation', () => {
    expect(ownsManifestFields({ metadata: {} }, manifest(deployment))).toBe(false);
    expect(ownsManifestFields(live(fields(), 'lightkeeper', 'Update'), manifest(deployment))).toBe(false);
    expect(ownsManifestFields(live(fields(), 'kubectl'), manifest(deployment))).toBe(false);
    expect(ownsManifestFields(live({}), manifest(deployment))).toBe(false);
  });
});
