import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { ConfigError } from '../errors';
import { Discovery } from './discovery';
import type { KubeClient } from './kubeClient';
import { serverSideApply } from './serverSideApply';

interface FileObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

/**
 * Server-side applies every object of a YAML file of ours (e.g. `infra/rbac/webhook.yaml`), in
 * file order, and answers `Kind/name` of each. Not for GitOps content: that goes through the engine.
 */
export async function applyFile(client: KubeClient, path: string): Promise<string[]> {
  const objects = parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => doc.toJS() as FileObject | null)
    .filter((o): o is FileObject => o !== null);
  const discovery = await new Discovery(client).refresh();
  const applied: string[] = [];
  for (const object of objects) {
    const resource = discovery.resourceFor(object.apiVersion, object.kind);
    if (!resource) {
      throw new ConfigError(`${path}: the server does not serve ${object.apiVersion} ${object.kind}`, {
        subject: path,
      });
    }
    await serverSideApply(
      client,
      {
        apiVersion: object.apiVersion,
        plural: resource.plural,
        namespace: resource.namespaced ? object.metadata.namespace : undefined,
        name: object.metadata.name,
      },
      object,
    );
    applied.push(`${object.kind}/${object.metadata.name}`);
  }
  return applied;
}
