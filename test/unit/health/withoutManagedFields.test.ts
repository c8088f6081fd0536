import { describe, expect, it } from 'vitest';
import { withoutManagedFields } from '../../../lib/health/readHealthTargets';

describe('withoutManagedFields', () => {
  it('drops the managed fields and keeps everything health reads', () => {
    const listed = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        generation: 2,
        managedFields: [{ manager: 'lightkeeper', operation: 'Apply', fieldsV1: { 'f:spec': {} } }],
      },
      status: { observedGeneration: 2, conditions: [{ type: 'Available', status: 'True' }] },
    };
    expect(withoutManagedFields(listed)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', generation: 2 },
      status: { observedGeneration: 2, conditions: [{ type: 'Available', status: 'True' }] },
    });
    expect(listed.metadata.managedFields).toHaveLength(1);
  });

  it('returns an object without managed fields as it is', () => {
    const bare = { metadata: { name: 'c' } };
    expect(withoutManagedFields(bare)).toBe(bare);
    expect(withoutManagedFields({})).toEqual({});
  });
});
