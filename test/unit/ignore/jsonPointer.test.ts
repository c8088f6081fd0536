import { describe, expect, it } from 'vitest';
import { parsePointer, valueAt, withoutPointers, withValueAt } from '../../../lib/ignore/jsonPointer';

const tokens = (pointer: string) => {
  const parsed = parsePointer(pointer);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.tokens;
};

describe('JSON pointers (RFC 6901)', () => {
  it('unescapes ~1 to / and ~0 to ~, in that order', () => {
    expect(tokens('/metadata/annotations/example.com~1note')).toEqual([
      'metadata',
      'annotations',
      'example.com/note',
    ]);
    expect(tokens('/a~01')).toEqual(['a~1']);
    expect(tokens('/')).toEqual(['']);
  });

  it('refuses what is not a pointer, saying why', () => {
    expect(parsePointer('spec/replicas')).toEqual({ error: '"spec/replicas" does not start with /' });
    expect(parsePointer('')).toEqual({ error: 'the empty pointer names the whole object' });
    expect(parsePointer('/a~2')).toMatchObject({
      error: expect.stringMatching(/~ must be followed by 0 or 1/),
    });
  });

  const deployment = {
    spec: {
      replicas: 3,
      template: {
        spec: {
          containers: [
            { name: 'a', image: 'a:1' },
            { name: 'b', image: 'b:1' },
          ],
        },
      },
    },
  };

  it('reads values through maps and list indices', () => {
    expect(valueAt(deployment, tokens('/spec/replicas'))).toBe(3);
    expect(valueAt(deployment, tokens('/spec/template/spec/containers/1/image'))).toBe('b:1');
    expect(valueAt(deployment, tokens('/spec/template/spec/containers/2'))).toBeUndefined();
    expect(valueAt(deployment, tokens('/spec/template/spec/containers/01'))).toBeUndefined();
  });

  it('removes without mutating, and leaves a missing path alone', () => {
    const removed = withoutPointers(deployment, [tokens('/spec/replicas'), tokens('/spec/nothing/here')]);
    expect(removed.spec).not.toHaveProperty('replicas');
    expect(deployment.spec.replicas).toBe(3);
    expect(removed.spec.template).toBe(deployment.spec.template);
  });

  it('removes list elements from the highest index down, so each pointer means what it said', () => {
    const removed = withoutPointers(deployment, [
      tokens('/spec/template/spec/containers/0'),
      tokens('/spec/template/spec/containers/1'),
    ]);
    expect(removed.spec.template.spec.containers).toEqual([]);
    const one = withoutPointers(deployment, [tokens('/spec/template/spec/containers/0/image')]);
    expect(one.spec.template.spec.containers).toEqual([{ name: 'a' }, { name: 'b', image: 'b:1' }]);
  });

  it('sets a value, creating the maps on the way', () => {
    const set = withValueAt({ metadata: { name: 'x' } }, tokens('/metadata/annotations/a~1b'), 'kept');
    expect(set).toEqual({ metadata: { name: 'x', annotations: { 'a/b': 'kept' } } });
  });
});
