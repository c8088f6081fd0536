import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { initialFiles, releaseTwoFiles } from '../../../lib/localstack/sampleRepo';
import { StartLedger } from '../../../lib/localstack/startLedger';
import { namedObjects, startNames } from '../../../lib/localstack/startNames';
import { readerRbacObjects } from '../../../lib/localstack/startReaderIdentities';

describe('startNames', () => {
  it('gives every name the run suffix, or none', () => {
    const plain = startNames('abc123', false);
    const suffixed = startNames('abc123', true);
    expect(plain.platformTrack).toEqual({ kind: 'ClusterGitTrack', name: 'platform' });
    expect(plain.teamTrack).toEqual({ kind: 'GitTrack', namespace: 'team-a', name: 'team-a' });
    for (const label of Object.keys(namedObjects(suffixed))) expect(label).toMatch(/-abc123$/);
    for (const label of Object.keys(namedObjects(plain))) expect(label).not.toMatch(/abc123/);
  });

  it('checks every cluster-level object and namespace the sample repository names', () => {
    const names = startNames('abc123', true);
    const checked = Object.keys(namedObjects(names));
    const files = { ...initialFiles(names), ...releaseTwoFiles(names) };
    for (const [path, text] of Object.entries(files)) {
      for (const doc of parseAllDocuments(text)) {
        const o = doc.toJS() as { kind: string; metadata: { name: string; labels: Record<string, string> } };
        expect(o.metadata.labels['lightkeeper.dev/start-run'], path).toBe('abc123');
        // Namespaced objects live in a folder named after their namespace, which is checked.
        const where = ['Namespace', 'ClusterRole'].includes(o.kind)
          ? `${o.kind}/${o.metadata.name}`
          : `Namespace/${path.split('/')[0]}`;
        expect(checked, path).toContain(where);
      }
    }
  });

  it('renames the webhook and sweep RBAC files consistently', () => {
    const names = startNames('abc123', true);
    for (const which of ['webhook', 'sweep'] as const) {
      const objects = readerRbacObjects(names, which).map((o) => o.object);
      const sa = `lightkeeper-${which}`;
      expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
        `ServiceAccount/lightkeeper-system-abc123/${sa}`,
        `ClusterRole//${sa}-abc123`,
        `ClusterRoleBinding//${sa}-abc123`,
      ]);
      const binding = objects[2];
      expect(binding?.roleRef?.name).toBe(`${sa}-abc123`);
      expect(binding?.subjects).toEqual([
        { kind: 'ServiceAccount', name: sa, namespace: 'lightkeeper-system-abc123' },
      ]);
      // Every cluster-level name is checked before the run creates anything.
      expect(Object.keys(namedObjects(names))).toEqual(
        expect.arrayContaining([`ClusterRole/${sa}-abc123`, `ClusterRoleBinding/${sa}-abc123`]),
      );
    }
  });
});

describe('StartLedger.owns', () => {
  const ledger = new StartLedger('abc123');
  ledger.created.push({
    label: 'Namespace/team-a',
    name: 'team-a',
    kind: 'Namespace',
    path: '/api/v1/namespaces/team-a',
    uid: 'u-1',
    creationTimestamp: '2026-12-02T06:00:00Z',
  });
  const object = (uid: string, creationTimestamp: string) => ({ metadata: { uid, creationTimestamp } });

  it('owns what it created and what was created after its first create', () => {
    expect(ledger.owns(object('u-1', '2026-12-02T06:00:00Z'))).toBe(true);
    expect(ledger.owns(object('u-2', '2026-12-02T06:00:01Z'))).toBe(true);
  });

  it('never owns an object as old as its first create, or older', () => {
    expect(ledger.owns(object('u-3', '2026-12-02T06:00:00Z'))).toBe(false);
    expect(ledger.owns(object('u-4', '2025-01-01T00:00:00Z'))).toBe(false);
    expect(ledger.owns({ metadata: { uid: 'u-5' } })).toBe(false);
    expect(new StartLedger('x').owns(object('u-6', '2030-01-01T00:00:00Z'))).toBe(false);
  });
});
