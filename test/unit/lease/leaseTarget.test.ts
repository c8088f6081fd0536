import { describe, expect, it } from 'vitest';
import { loadCliConfig } from '../../../lib/config/cliConfig';
import { loadReconcileConfig } from '../../../lib/config/reconcileConfig';
import { defaultLeaseNamespace, leaseTarget } from '../../../lib/lease/leaseTarget';
import type { TrackRef } from '../../../lib/track/trackRef';

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const gt = (namespace: string, name: string): TrackRef => ({ kind: 'GitTrack', namespace, name });
const cgt = (name: string): TrackRef => ({ kind: 'ClusterGitTrack', name });

describe('leaseTarget', () => {
  it("puts every track's leases in the reconciler's namespace, a GitTrack's too", () => {
    expect(leaseTarget(gt('team-a', 'app'), 'lightkeeper-system')).toEqual({
      namespace: 'lightkeeper-system',
      name: 'lightkeeper-gittrack-team-a.app',
      waiterName: 'lightkeeper-waiter-gittrack-team-a.app',
    });
    expect(leaseTarget(cgt('platform'), 'lightkeeper-system').namespace).toBe('lightkeeper-system');
  });

  it('defaults to lightkeeper-system unless LIGHTKEEPER_LEASE_NAMESPACE says otherwise', () => {
    expect(defaultLeaseNamespace).toBe('lightkeeper-system');
    expect(loadReconcileConfig({}).leaseNamespace).toBe('lightkeeper-system');
    expect(loadReconcileConfig({ LIGHTKEEPER_LEASE_NAMESPACE: 'ops' }).leaseNamespace).toBe('ops');
    // The CLI takes its leases where the function does.
    expect(loadCliConfig({ LIGHTKEEPER_LEASE_NAMESPACE: 'ops' }).leaseNamespace).toBe('ops');
  });

  // Namespaces are DNS labels (no dot); track names are DNS subdomains.
  it('never gives two tracks, or a track and a waiter slot, the same name', () => {
    const long = 'x'.repeat(253);
    const tracks = [
      gt('a-b', 'c'),
      gt('a', 'b-c'),
      gt('a', 'b.c'),
      gt('team', 'app'),
      gt('other', 'app'),
      cgt('app'),
      cgt('team.app'),
      cgt('gittrack-team.app'),
      cgt('waiter-gittrack-team.app'),
      cgt('app-waiter'),
      gt('team', 'app-waiter'),
      gt('n'.repeat(63), long),
      gt('m'.repeat(63), long),
      gt('n'.repeat(63), `${long.slice(1)}y`),
      cgt(long),
    ];
    const names = tracks.flatMap((t) => {
      const target = leaseTarget(t, 'lightkeeper-system');
      return [target.name, target.waiterName];
    });
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(253);
      expect(name).toMatch(dnsSubdomain);
    }
  });

  it('refuses a GitTrack without a namespace', () => {
    expect(() => leaseTarget({ kind: 'GitTrack', name: 'x' }, 'lightkeeper-system')).toThrow(TypeError);
  });
});
