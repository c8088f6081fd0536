import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { reconcile } from '../../../lib/reconcile/reconcile';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, kubeClient, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, yamlOf } from '../../support/engine';
import { reconcilerClient } from '../../support/reconcilerClient';
import { createRole, grant } from '../../support/tenancy';

// Whose identity the dependency rules use: the reconciler's own, as shipped in infra/rbac (a
// GitTracks-only deployment), reads the dependencies and lists the dependents; a dependency's git
// credentials are read as the dependency's own service account — not the reconciler's (it may
// read no Secret) and not the dependent's (here it may not either).

const token = 'depends-identity-token';
const gitTracksOnly: DeploymentConfig = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled' };

let admin: KubeClient;
let reconciler: KubeClient;
let privateGit: GitServer;
let publicGit: GitServer;
let gitCacheRoot: string;
beforeAll(async () => {
  admin = await kubeClient();
  privateGit = await startGitServer({ token });
  publicGit = await startGitServer();
  gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-depends-identity-'));
  reconciler = await reconcilerClient(admin);
});
afterAll(async () => {
  await reconciler?.close();
  await admin?.close();
  await privateGit?.close();
  await publicGit?.close();
  rmSync(gitCacheRoot, { recursive: true, force: true });
});

const run = (track: TrackRef) =>
  reconcile({ client: reconciler, config: gitTracksOnly, gitCacheRoot }, { track });

describe('dependsOn identities', () => {
  it("reads tracks as the reconciler and a dependency's credentials as the dependency", async () => {
    const ns = await freshNamespace(admin, 'dep-identity');
    await admin.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns }), {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'git' }, stringData: { token } },
    });
    const dbRepo = createRepo(privateGit, uniqueName('db'));
    commit(dbRepo, { 'db.yaml': yamlOf(configMap('db')) }, 'db');
    const appRepo = createRepo(publicGit, uniqueName('app'));
    commit(appRepo, { 'app.yaml': yamlOf(configMap('app')) }, 'app');
    // `db-deployer` (admin of the namespace) may read the Secret; `app-deployer` only ConfigMaps.
    const db = await createGitTrack(admin, ns, {
      repository: dbRepo.url,
      reference: 'main',
      serviceAccountName: 'db-deployer',
      auth: { type: 'token', secretRef: { name: 'git' } },
    });
    await createRole(admin, ns, 'configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }]);
    await grant(admin, ns, { role: 'configmaps' }, 'app-deployer');
    const app = await createGitTrack(
      admin,
      ns,
      {
        repository: appRepo.url,
        reference: 'main',
        serviceAccountName: 'app-deployer',
        dependsOn: [{ kind: 'GitTrack', name: db.name }],
      },
      { access: false },
    );

    expect((await run(app)).waitingFor).toEqual([{ track: db, reason: 'not reconciled yet' }]);
    const dbRun = await run(db);
    expect(dbRun).toMatchObject({ result: 'Succeeded' });
    // Listed with the shipped role: tracks are the reconciler's own objects.
    expect(dbRun.dependents).toEqual([{ track: app, sameRepository: false }]);
    // db's head is listed from the private server with db's token, read as db-deployer.
    const appRun = await run(app);
    expect(appRun.errors).toEqual([]);
    expect(appRun.result).toBe('Succeeded');
    expect(await getLive(admin, configMaps, 'app', ns)).toBeDefined();
  });
});
