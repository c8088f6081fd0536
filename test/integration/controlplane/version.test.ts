import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { kubeClient, kubeconfig, localControlPlane } from '../../support/cluster';

// The binaries infra/build-control-plane.sh builds carry their release, as Kubernetes' own build
// stamps it: unstamped they say v0.0.0-master+$Format:%H$, which charts' kubeVersion refuses.
const run = promisify(execFile);
const goMod = readFileSync(join(import.meta.dirname, '../../../infra/controlplane/go.mod'), 'utf8');
const release = goMod.match(/^\s*k8s\.io\/kubernetes (v(\d+)\.(\d+)\.\d+)\b/m);
const plane = localControlPlane();

describe.skipIf(!plane)('the local control plane', () => {
  it('pins a Kubernetes release in infra/controlplane/go.mod', () => {
    expect(release?.[1]).toMatch(/^v1\.\d+\.\d+$/);
  });
  const [, gitVersion, major, minor] = release ?? [];
  const version = { gitVersion, major, minor, gitTreeState: 'clean' };

  it("says that release at the API server's /version", async () => {
    const client = await kubeClient();
    try {
      expect(await client.get('/version')).toMatchObject(version);
    } finally {
      await client.close();
    }
  });

  it('builds kubectl, kube-apiserver and kube-controller-manager saying it too', async () => {
    const kubectl = plane?.kubectl ?? '';
    const { stdout } = await run(kubectl, ['version', '-o', 'json', '--kubeconfig', kubeconfig()]);
    expect(JSON.parse(stdout)).toMatchObject({ clientVersion: version, serverVersion: version });
    for (const binary of ['kube-apiserver', 'kube-controller-manager']) {
      const { stdout } = await run(join(dirname(kubectl), binary), ['--version']);
      expect(stdout).toBe(`Kubernetes ${gitVersion}\n`);
    }
  });
});
