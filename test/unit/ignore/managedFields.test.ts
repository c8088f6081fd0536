import { describe, expect, it } from 'vitest';
import { appliedFieldsDigest } from '../../../lib/apply/fieldsDigest';
import { parsePointer } from '../../../lib/ignore/jsonPointer';
import { locate, soleOwnedByUs, withoutIgnoredFields } from '../../../lib/ignore/managedFields';
import type { Manifest } from '../../../lib/manifests';

const tokens = (pointer: string) => {
  const parsed = parsePointer(pointer);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.tokens;
};

const manifest = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 3,
    template: { spec: { containers: [{ name: 'a', image: 'a:1' }] } },
  },
};

// As the API server records them: lightkeeper's apply, and a second writer through the scale subresource.
const ours = {
  manager: 'lightkeeper',
  operation: 'Apply',
  fieldsV1: {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': {
      'f:replicas': {},
      'f:template': {
        'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
      },
    },
  },
};
const scaler = {
  manager: 'hpa-like',
  operation: 'Update',
  subresource: 'scale',
  fieldsV1: { 'f:spec': { 'f:replicas': {} } },
};
const live = (...managedFields: object[]) => ({ metadata: { managedFields } });
const withoutReplicas = {
  ...ours,
  fieldsV1: { ...ours.fieldsV1, 'f:spec': { 'f:template': ours.fieldsV1['f:spec']['f:template'] } },
};

describe('ignored fields in managedFields', () => {
  it('finds a list element by its key fields, read from the manifest', () => {
    expect(locate(ours.fieldsV1, tokens('/spec/template/spec/containers/0/image'), manifest)).toEqual({
      at: 'found',
      keys: ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image'],
    });
    expect(locate(ours.fieldsV1, tokens('/spec/paused'), manifest)).toEqual({ at: 'absent' });
    // An atomic list is owned as a whole: a pointer into it lands on its owner.
    expect(locate({ 'f:spec': { 'f:args': {} } }, tokens('/spec/args/0'), { spec: { args: ['x'] } })).toEqual(
      {
        at: 'atomic',
      },
    );
  });

  it('says when dropping a field would make the API server remove it: we own it and nobody else does', () => {
    expect(soleOwnedByUs(live(ours), tokens('/spec/replicas'), manifest)).toBe(true);
    expect(soleOwnedByUs(live(ours, scaler), tokens('/spec/replicas'), manifest)).toBe(false);
    expect(soleOwnedByUs(live(withoutReplicas, scaler), tokens('/spec/replicas'), manifest)).toBe(false);
    expect(soleOwnedByUs(live(scaler), tokens('/spec/replicas'), manifest)).toBe(false);
    // A whole container: the other writer owning one of its fields does not cover the rest.
    const imageWriter = {
      manager: 'kubectl-set',
      operation: 'Update',
      fieldsV1: {
        'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:image': {} } } } } },
      },
    };
    expect(soleOwnedByUs(live(ours, imageWriter), tokens('/spec/template/spec/containers/0'), manifest)).toBe(
      true,
    );
    expect(
      soleOwnedByUs(live(ours, imageWriter), tokens('/spec/template/spec/containers/0/image'), manifest),
    ).toBe(false);
  });

  it('leaves ignored fields out of the drift digest, so their changing hands is no drift', () => {
    const planned = {
      ignore: [tokens('/spec/replicas')],
      manifest: { object: manifest } as unknown as Manifest,
    };
    const before = appliedFieldsDigest(live(ours), planned);
    expect(appliedFieldsDigest(live(withoutReplicas, scaler), planned)).toBe(before);
    // Without the rule the same handover is drift.
    expect(appliedFieldsDigest(live(withoutReplicas, scaler))).not.toBe(appliedFieldsDigest(live(ours)));
    // And a field that is not ignored still counts.
    const imageTaken = withoutIgnoredFields(
      ours.fieldsV1,
      [tokens('/spec/template/spec/containers/0/image')],
      manifest,
    );
    expect(appliedFieldsDigest(live({ ...ours, fieldsV1: imageTaken }), planned)).not.toBe(before);
  });

  it('drops the parents that only held an ignored field', () => {
    const annotated = { 'f:metadata': { 'f:annotations': { 'f:x': {} }, 'f:labels': { 'f:app': {} } } };
    expect(withoutIgnoredFields(annotated, [tokens('/metadata/annotations/x')], {})).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
    });
  });
});
