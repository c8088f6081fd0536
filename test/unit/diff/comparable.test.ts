import { describe, expect, it } from 'vitest';
import { comparable } from '../../../lib/diff/comparable';

describe('comparable', () => {
  it('drops status and the metadata the server rewrites, keeps the rest', () => {
    expect(
      comparable({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'c',
          labels: { a: 'b' },
          uid: 'u',
          resourceVersion: '7',
          generation: 2,
          creationTimestamp: 't',
          managedFields: [],
        },
        data: { k: 'v' },
        status: { phase: 'x' },
      }),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { a: 'b' } },
      data: { k: 'v' },
    });
  });
});
