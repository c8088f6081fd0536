import { describe, expect, it } from 'vitest';
import { trackUidLabel } from '../../../lib/manifests/metadataKeys';
import { childOwnership } from '../../../lib/ownership/childOwnership';

const ours = { trackerUid: 'tracker-uid', trackUid: 'track-uid' };
const child = (metadata: object) => ({ metadata });
const controller = (uid: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: 'boss',
  uid,
  controller: true,
});

describe('whether a live child is ours to delete', () => {
  it('is ours when our tracking object is its controller', () => {
    expect(childOwnership(child({ ownerReferences: [controller('tracker-uid')] }), ours)).toEqual({
      ours: true,
    });
  });

  it('is ours without a controller only when it carries our track label', () => {
    expect(childOwnership(child({ labels: { [trackUidLabel]: 'track-uid' } }), ours)).toEqual({ ours: true });
    expect(childOwnership(child({ labels: { [trackUidLabel]: 'other' } }), ours)).toMatchObject({
      ours: false,
    });
    expect(childOwnership(child({}), ours)).toMatchObject({ ours: false });
    // A non-controller reference to us does not make it ours either.
    const reference = { ...controller('tracker-uid'), controller: false };
    expect(childOwnership(child({ ownerReferences: [reference] }), ours)).toMatchObject({ ours: false });
  });

  it('is never ours under another controller, even with our label', () => {
    expect(
      childOwnership(
        child({ labels: { [trackUidLabel]: 'track-uid' }, ownerReferences: [controller('someone-else')] }),
        ours,
      ),
    ).toEqual({ ours: false, reason: 'it is controlled by ConfigMap boss' });
  });
});
