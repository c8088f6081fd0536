import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureControlPlaneBinaries } from '../../../lib/controlplane/binaries';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { exactJson } from '../../support/kubectlOracle';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

async function gitTrackWith(files: Record<string, string>) {
  const ns = await freshNamespace(client, 'yaml11');
  const repo = createRepo(server, uniqueName('yaml11'));
  commit(repo, files, 'first');
  const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
  return { ns, track };
}

/** The live object as exact JSON (read by kubectl: the client parses responses into float64s). */
async function liveExact(kind: string, name: string, ns: string) {
  const kubectl = join(await ensureControlPlaneBinaries(), 'kubectl');
  const args = ['--kubeconfig', kubeconfig(), 'get', kind, name, '-n', ns, '-o', 'json'];
  const { stdout } = await promisify(execFile)(kubectl, args);
  return exactJson(stdout)[0];
}

describe('manifests reach the API server as kubectl would send them', () => {
  it('applies octal file modes, YAML 1.1 booleans and an int64 beyond 2^53 exactly', async () => {
    // YAML 1.2 reads 0644 as 644 (refused: above 0777) and 0400 as 400 (accepted: mode 0620),
    // `no` as a string, and JavaScript rounds 9007199254740993 to 9007199254740992.
    const job = `apiVersion: batch/v1
kind: Job
metadata:
  name: modes
spec:
  activeDeadlineSeconds: 9007199254740993
  template:
    spec:
      restartPolicy: Never
      automountServiceAccountToken: no
      containers: [{name: c, image: busybox}]
      volumes:
      - name: s
        secret: {secretName: s, defaultMode: 0400, items: [{key: k, path: p, mode: 0644}]}
`;
    const { ns, track } = await gitTrackWith({ 'job.yaml': job });
    expect((await e.run(track)).result).toBe('Succeeded');
    const live = await liveExact('job', 'modes', ns);
    expect(live).toMatchObject({
      spec: {
        activeDeadlineSeconds: 9007199254740993n,
        template: {
          spec: {
            automountServiceAccountToken: false,
            volumes: [{ secret: { defaultMode: 256n, items: [{ mode: 420n }] } }],
          },
        },
      },
    });
  });

  it('refuses a name that is not a path segment with file and line, and sends no request for the commit', async () => {
    const before = `${yamlOf(configMap('fine'))}---\n`;
    const { ns, track } = await gitTrackWith({
      'good.yaml': yamlOf(configMap('good')),
      'names.yaml': `${before}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ..\ndata: {k: v}\n`,
    });
    const nameLine = before.split('\n').length + 3;
    const summary = await e.run(track);
    expect(summary.result).toBe('Failed');
    expect(summary.errors.join('\n')).toContain(
      `names.yaml:${nameLine}: metadata.name ".." in ConfigMap may not be '..'`,
    );
    // The commit is broken, so none of it is applied. Without the check, the tracking object was
    // applied first and the child's URL (.../configmaps/..) resolved to the namespace itself.
    expect(await getLive(client, configMaps, 'good', ns)).toBeUndefined();
    const trackers = await client.get<{ items: Array<{ spec: { target: { name: string } } }> }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    );
    expect(trackers.items).toEqual([]);
  });
});
