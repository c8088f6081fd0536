import { describe, expect, it } from 'vitest';
import { isFarosImage, lastFarosStatusWrite } from '../../../lib/migrate/farosActivity';
import { decodeFarosManifest } from '../../../lib/migrate/planChild';

describe('signs of a running Faros controller', () => {
  it('recognizes the Faros image by its repository, whatever the registry, tag or digest', () => {
    for (const image of ['quay.io/pusher/faros:v0.7.1', 'faros', 'registry.local:5000/faros@sha256:abc'])
      expect(isFarosImage(image), image).toBe(true);
    for (const image of ['quay.io/pusher/faros-exporter:v1', 'nginx', 'faros.io/nginx:1'])
      expect(isFarosImage(image), image).toBe(false);
  });

  it('finds the newest condition timestamp Faros wrote on any of its objects', () => {
    const meta = (name: string) => ({ name, namespace: 'a', uid: name });
    const last = lastFarosStatusWrite({
      served: true,
      tracks: [
        {
          kind: 'GitTrack',
          metadata: meta('t'),
          spec: { repository: 'r', reference: 'main' },
          status: { conditions: [{ type: 'ParseError', lastUpdateTime: '2026-11-30T10:00:00Z' }] },
        },
      ],
      trackers: [
        {
          kind: 'GitTrackObject',
          metadata: meta('configmap-x'),
          spec: { kind: 'ConfigMap', name: 'x', data: '' },
          status: { conditions: [{ type: 'ObjectInSync', lastTransitionTime: '2026-11-30T11:00:00Z' }] },
        },
      ],
    });
    expect(last).toEqual({
      at: new Date('2026-11-30T11:00:00Z'),
      object: 'GitTrackObject.faros.pusher.com/a/configmap-x',
    });
  });
});

describe('decodeFarosManifest', () => {
  const tracker = (data: string, kind = 'ConfigMap', name = 'x') => ({
    kind: 'GitTrackObject' as const,
    metadata: { name: 'configmap-x', namespace: 'a', uid: 'u' },
    spec: { kind, name, data: Buffer.from(data).toString('base64') },
  });
  it('reads the JSON or YAML manifest Faros recorded', () => {
    expect(
      decodeFarosManifest(tracker('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}')),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'x',
    });
    expect(
      decodeFarosManifest(tracker('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n')),
    ).toMatchObject({ name: 'x' });
  });
  it('names what does not add up', () => {
    expect(
      decodeFarosManifest(tracker('{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}}')),
    ).toEqual({
      problem: 'spec.data names Secret x, but spec names ConfigMap x',
    });
    expect(decodeFarosManifest(tracker('not: [a manifest'))).toHaveProperty('problem');
  });
});
