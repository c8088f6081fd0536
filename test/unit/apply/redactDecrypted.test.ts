import { describe, expect, it } from 'vitest';
import { redactedError } from '../../../lib/apply/redactDecrypted';

describe('redactedError', () => {
  it('keeps the field paths the API server named and none of its words', () => {
    const message =
      'ConfigMap "app" is invalid: [data[bad key]: Invalid value: "hunter2-plain": a valid config key must consist of alphanumeric characters, metadata.labels: Invalid value: "x y": bad]';
    const text = redactedError('ConfigMap/ns/app', message);
    expect(text).toBe(
      'ConfigMap/ns/app: the API server refused it at data[bad key], metadata.labels (its message is withheld: the object was decrypted)',
    );
    expect(text).not.toContain('hunter2');
  });

  it('says the server refused it when it names no field', () => {
    expect(
      redactedError('Secret/ns/s', 'admission webhook "x" denied the request: value hunter2 is weak'),
    ).toBe('Secret/ns/s: the API server refused it (its message is withheld: the object was decrypted)');
  });
});
