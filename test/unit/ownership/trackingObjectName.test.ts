import { describe, expect, it } from 'vitest';
import { trackingObjectName } from '../../../lib/ownership/trackingObjectName';

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

describe('trackingObjectName', () => {
  it('is readable and deterministic', () => {
    const ref = { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
    expect(trackingObjectName(ref)).toMatch(/^configmap-web-[0-9a-f]{10}$/);
    expect(trackingObjectName(ref)).toBe(trackingObjectName({ ...ref }));
  });

  it('differs across API groups, namespaces and names that sanitize alike', () => {
    const names = [
      { group: 'networking.k8s.io', kind: 'Ingress', namespace: 'a', name: 'web' },
      { group: 'extensions', kind: 'Ingress', namespace: 'a', name: 'web' },
      { group: 'networking.k8s.io', kind: 'Ingress', namespace: 'b', name: 'web' },
      { group: '', kind: 'ClusterRole', name: 'system:aggregate-to-edit' },
      { group: '', kind: 'ClusterRole', name: 'system-aggregate-to-edit' },
    ].map(trackingObjectName);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    ['a colon', 'system:controller:bootstrap-signer'],
    ['upper case and underscores', 'My_Object'],
    ['253 characters', 'x'.repeat(253)],
    ['dots at the edges', '.hidden.'],
    ['only symbols', ':::'],
  ])('is a valid DNS-1123 subdomain of at most 253 characters for %s', (_case, name) => {
    const result = trackingObjectName({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name });
    expect(result.length).toBeLessThanOrEqual(253);
    expect(result).toMatch(dns1123Subdomain);
  });
});
