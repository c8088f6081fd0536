import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatRef, parseManifests } from '../../../lib/manifests';

// Real-world manifests kept outside the project (see ../shared/corpus/README.md).
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

const readTree = (dir: string): Array<{ path: string; content: Uint8Array }> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((file) => ({ path: relative(corpus, file), content: readFileSync(file) }));

/** Counted from the text, not by parsing: top-level `kind:` lines, with `*List` files counted by their items' `kind:`. */
const countObjects = (text: string): number => {
  const topKinds = text.match(/^kind: .*$/gm) ?? [];
  const lists = topKinds.filter((line) => line.endsWith('List')).length;
  const itemKinds = lists > 0 ? (text.match(/^ {2}kind: /gm) ?? []).length : 0;
  return topKinds.length - lists + itemKinds;
};

describe('corpus', () => {
  it('parses kube-prometheus (CRDs up to 800 KB, a 1 MB ConfigMapList) without errors', () => {
    const files = readTree(join(corpus, 'kube-prometheus/manifests'));
    expect(files).toHaveLength(95);
    const expected = files.reduce((sum, file) => sum + countObjects(Buffer.from(file.content).toString()), 0);
    expect(expected).toBe(131);

    const { manifests, errors } = parseManifests(files);
    expect(errors).toEqual([]);
    expect(manifests).toHaveLength(expected);
    expect(manifests.filter((m) => m.ref.kind === 'CustomResourceDefinition')).toHaveLength(10);
    expect(manifests.some((m) => m.ref.kind.endsWith('List'))).toBe(false);

    const dashboards = manifests.filter(
      (m) => m.source.path === 'kube-prometheus/manifests/grafana-dashboardDefinitions.yaml',
    );
    expect(dashboards).toHaveLength(33);
    expect(dashboards.slice(0, 2).map((m) => m.source.line)).toEqual([3, 366]);
    expect(formatRef(dashboards[0]!.ref)).toBe(
      'ConfigMap/monitoring/grafana-dashboard-alertmanager-overview',
    );
    expect(Object.keys(dashboards[0]!.object.data as object)).toEqual(['alertmanager-overview.json']);

    const roles = manifests.filter((m) => m.source.path.endsWith('prometheus-roleSpecificNamespaces.yaml'));
    expect(roles.map((m) => formatRef(m.ref))).toEqual([
      'Role.rbac.authorization.k8s.io/default/prometheus-k8s',
      'Role.rbac.authorization.k8s.io/kube-system/prometheus-k8s',
      'Role.rbac.authorization.k8s.io/monitoring/prometheus-k8s',
    ]);
  }, 60_000);

  it('parses ingress-nginx deploy.yaml, one multi-document file', () => {
    const path = 'ingress-nginx/deploy.yaml';
    const content = readFileSync(join(corpus, path), 'utf8');
    const { manifests, errors } = parseManifests([{ path, content }]);
    expect(errors).toEqual([]);
    expect(manifests).toHaveLength(countObjects(content));
    expect(manifests).toHaveLength(19);
    expect(formatRef(manifests[0]!.ref)).toBe('Namespace/ingress-nginx');
    expect(manifests[0]!.source.line).toBe(1);
    const lines = manifests.map((m) => m.source.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    for (const { source, ref } of manifests) {
      expect(content.split('\n')[source.line - 1]).toMatch(/^(apiVersion|kind|metadata):/);
      expect(ref.name).not.toBe('');
    }
  });

  it('parses microservices-demo, whose objects have no namespace', () => {
    const path = 'microservices-demo/kubernetes-manifests.yaml';
    const content = readFileSync(join(corpus, path), 'utf8');
    const { manifests, errors } = parseManifests([{ path, content }]);
    expect(errors).toEqual([]);
    expect(manifests).toHaveLength(countObjects(content));
    expect(manifests).toHaveLength(35);
    for (const { ref, object } of manifests) {
      expect(ref.namespace).toBeUndefined();
      expect(object.metadata.namespace).toBeUndefined();
    }
    expect(manifests.map((m) => formatRef(m.ref))).toContain('Deployment.apps/frontend');
  });
});
