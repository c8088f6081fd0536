import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  engine,
  getLive,
  includeNamespaced,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// spec.kustomize.allowRemote does not let a tenant borrow the reconciler's network: a GitTrack
// renders remote content only from the hosts the deployment lists (LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS),
// and even the platform's ClusterGitTrack reaches no loopback, link-local or private address of a
// host not listed, checked on the address dialled (a name resolving to 127.0.0.1 too).

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

/** Stands for an instance-metadata endpoint or an internal service the reconciler can reach. */
let metadata: Server;
let metadataPort = 0;
const asked: string[] = [];
beforeAll(async () => {
  metadata = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.end('AKIA-role-credentials');
  });
  await new Promise<void>((resolve) => metadata.listen(0, '127.0.0.1', resolve));
  metadataPort = (metadata.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => metadata.close(() => resolve())));

const generator = (ns: string, host: string) =>
  `namespace: ${ns}\ngeneratorOptions:\n  disableNameSuffixHash: true\nconfigMapGenerator:\n  - name: leak\n    files:\n      - http://${host}/latest/meta-data/iam\n`;

async function trackWithGenerator(kind: TrackRef['kind'], host: string) {
  const ns = await freshNamespace(client, 'kz-net');
  const repo = createRepo(server, uniqueName('kz-net'));
  commit(repo, { 'app/kustomization.yaml': generator(ns, host) }, 'a generator file from the network');
  const spec = { repository: repo.url, reference: 'main', subPath: 'app', kustomize: { allowRemote: true } };
  const track =
    kind === 'GitTrack' ? await createGitTrack(client, ns, spec) : await createClusterGitTrack(client, spec);
  return { ns, track };
}

const withHosts = (hosts: string[]) =>
  engine(client, { config: { ...includeNamespaced, kustomizeRemoteHosts: hosts } });

describe('remote kustomize content', () => {
  it('is never fetched for a GitTrack whose host the deployment does not list, allowRemote or not', async () => {
    const { ns, track } = await trackWithGenerator('GitTrack', `127.0.0.1:${metadataPort}`);
    const before = asked.length;
    const summary = await e.run(track);
    expect(summary).toMatchObject({
      result: 'Failed',
      deployed: { extent: 'broken' },
      counts: { applied: 0 },
    });
    expect(summary.errors.join('\n')).toMatch(
      /^app\/kustomization\.yaml: kustomize build failed: remote refused: remote host 127\.0\.0\.1 is not on the deployment's allow-list \(LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS\)/,
    );
    expect(asked.slice(before)).toEqual([]);
    expect(await getLive(client, configMaps, 'leak', ns)).toBeUndefined();

    const listed = withHosts([`127.0.0.1:${metadataPort}`]);
    try {
      expect(await listed.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
      expect((await getLive(client, configMaps, 'leak', ns))?.data).toEqual({ iam: 'AKIA-role-credentials' });
    } finally {
      listed.dispose();
    }
  });

  it.each([
    { field: 'resources', base: 'base' },
    { field: 'components', base: 'component' },
  ])('is a git $field entry only from a listed host for a GitTrack', async ({ field, base }) => {
    const ns = await freshNamespace(client, 'kz-net-git');
    const remote = createRepo(server, `${uniqueName('kz-net-base')}.git`);
    commit(
      remote,
      {
        'base/kustomization.yaml': 'resources:\n  - cm.yaml\n',
        'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-remote\n',
        'component/kustomization.yaml':
          'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  from: remote\n',
      },
      'base and component',
    );
    const repo = createRepo(server, uniqueName('kz-net-overlay'));
    commit(
      repo,
      { 'app/kustomization.yaml': `namespace: ${ns}\n${field}:\n  - ${remote.url}//${base}?ref=main\n` },
      'overlay',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
      kustomize: { allowRemote: true },
    });
    const seen = server.requests.length;
    const other = withHosts(['github.com']);
    try {
      const summary = await other.run(track);
      expect(summary).toMatchObject({ result: 'Failed', deployed: { extent: 'broken' } });
      expect(summary.errors.join('\n')).toMatch(
        /remote host 127\.0\.0\.1 is not on the deployment's allow-list/,
      );
    } finally {
      other.dispose();
    }
    expect(server.requests.slice(seen).filter((r) => r.includes(remote.name))).toEqual([]);
  });

  it('reaches no loopback address for a ClusterGitTrack unless its host is listed, by IP or by name', async () => {
    for (const host of [`127.0.0.1:${metadataPort}`, `localhost:${metadataPort}`]) {
      const { ns, track } = await trackWithGenerator('ClusterGitTrack', host);
      try {
        const before = asked.length;
        const summary = await e.run(track);
        expect(summary).toMatchObject({ result: 'Failed', deployed: { extent: 'broken' } });
        expect(summary.errors.join('\n')).toMatch(
          new RegExp(
            `remote refused: remote host ${host.split(':')[0]} resolves to (127\\.0\\.0\\.1|::1), a loopback address`,
          ),
        );
        expect(asked.slice(before)).toEqual([]);
        expect(await getLive(client, configMaps, 'leak', ns)).toBeUndefined();
        if (host.startsWith('127')) {
          const listed = withHosts(['127.0.0.1']);
          try {
            expect(await listed.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
          } finally {
            listed.dispose();
          }
        }
      } finally {
        await client.request(
          'DELETE',
          resourcePath({ ...lightkeeperResources.ClusterGitTrack, name: track.name }),
        );
      }
    }
  });
});
