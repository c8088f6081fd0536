import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { formatMigration } from '../../../lib/migrate/formatMigration';
import { migrateFaros } from '../../../lib/migrate/migrateFaros';
import { eventually, freshNamespace, kubeClient, uniqueName } from '../../support/cluster';
import { includeNamespaced } from '../../support/engine';
import { installFarosCrds, removeFarosCrds } from '../../support/farosCrds';
import { layOutFarosTrack, type Manifest } from './farosLayout';

// A Faros GitTrack whose tracking objects sit in other namespaces can only become a ClusterGitTrack,
// which acts as the reconciler itself: the tenant's repository and the tenant's Secret would be
// trusted with the platform's rights. `migrate faros` reports such a track, naming the repository and
// Secret, and leaves it alone unless the operator names it (--promote); a promoted track's
// credentials are copied to the reconciler's own namespace.

let client: KubeClient;
beforeAll(async () => {
  client = await kubeClient();
  await installFarosCrds(client);
});
afterAll(async () => {
  await removeFarosCrds(client);
  await client.close();
});

const cm = (name: string, namespace: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data: { k: 'v' },
});

describe('migrate faros and a GitTrack spanning namespaces', () => {
  it('is reported and left alone unless the operator names it, then promoted with its credentials moved to the reconciler', async () => {
    const [tenant, victim, system] = await Promise.all([
      freshNamespace(client, 'faros-tenant'),
      freshNamespace(client, 'faros-victim'),
      freshNamespace(client, 'faros-system'),
    ]);
    const repository = `https://git.example/${uniqueName('tenant')}.git`;
    await client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: tenant }), {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'git' }, stringData: { creds: 'u:token' } },
    });
    const laid = await layOutFarosTrack(client, {
      kind: 'GitTrack',
      namespace: tenant,
      name: 'apps',
      holdAgainstCollector: true,
      spec: {
        repository,
        reference: 'main',
        deployKey: { secretName: 'git', key: 'creds', type: 'HTTPBasicAuth' },
      },
      children: [
        { manifest: cm('own', tenant), trackerNamespace: tenant },
        { manifest: cm('planted', victim), trackerNamespace: victim },
      ],
    });
    const target = resourcePath({ ...lightkeeperResources.ClusterGitTrack, name: `${tenant}.apps` });
    const copied = resourcePath({
      apiVersion: 'v1',
      plural: 'secrets',
      namespace: system,
      name: `${tenant}.git-lightkeeper`,
    });
    const options = { config: includeNamespaced, namespace: tenant, reconcilerNamespace: system };
    try {
      // Not named: reported, nothing created, nothing handed over.
      // Right after an earlier test removed and this one re-installed Faros' CRDs, the plan may not
      // see the new objects at once: ask again (an unnamed promotion writes nothing) until it does.
      let left = await migrateFaros(client, options);
      await eventually(
        'the plan sees the GitTrack to promote',
        async () => {
          if (!left.plan.tracks[0]?.promotion) left = await migrateFaros(client, options);
          return !!left.plan.tracks[0]?.promotion;
        },
        30_000,
      );
      expect(await client.find(target)).toBeUndefined();
      expect(await client.find(copied)).toBeUndefined();
      const [plan] = left.plan.tracks;
      expect(plan?.promotion).toEqual({
        ref: `GitTrack/${tenant}/apps`,
        repository,
        secret: { namespace: tenant, name: 'git' },
        approved: false,
      });
      expect(formatMigration(left)).toContain(
        `BLOCKED: a tenant's GitTrack is never promoted unless you name it: it would become ClusterGitTrack ${tenant}.apps, acting as the reconciler itself with no rights check, following ${repository} with the credentials of Secret ${tenant}/git; left alone (to promote it: --promote GitTrack/${tenant}/apps)`,
      );
      expect(left.leftInPlace).toContain(
        `GitTrack.faros.pusher.com/${tenant}/apps and its 2 tracking object(s): not migrated`,
      );
      expect(left.deleteCommands).toEqual([]);
      const planted = resourcePath({
        apiVersion: 'v1',
        plural: 'configmaps',
        namespace: victim,
        name: 'planted',
      });
      const owners = await client.get<{ metadata: { ownerReferences: Array<{ kind: string }> } }>(planted);
      expect(owners.metadata.ownerReferences.map((o) => o.kind)).toEqual(['GitTrackObject']);

      // A --promote naming no such track is a usage error, before anything is read or written.
      await expect(
        migrateFaros(client, { ...options, promote: [`GitTrack/${tenant}/other`] }),
      ).rejects.toThrow(
        `--promote GitTrack/${tenant}/other: no Faros GitTrack of that name in namespace ${tenant} would become a ClusterGitTrack`,
      );

      // Named: promoted; the ClusterGitTrack reads credentials copied to the reconciler's namespace.
      const promoted = await migrateFaros(client, { ...options, promote: [`GitTrack/${tenant}/apps`] });
      expect(promoted.leftInPlace).toEqual([]);
      expect(formatMigration(promoted)).toContain(
        `promoted (--promote GitTrack/${tenant}/apps): the platform trusts ${repository}, credentials of Secret ${tenant}/git, as the reconciler`,
      );
      const track = await client.get<{ spec: { auth: unknown } }>(target);
      expect(track.spec.auth).toEqual({
        type: 'basic',
        secretRef: { name: `${tenant}.git-lightkeeper`, namespace: system },
      });
      expect(await client.find(copied)).toBeDefined();
      expect(laid.children).toHaveLength(2);
    } finally {
      await laid.release();
      await client.request('DELETE', target).catch(() => {});
    }
  });
});
