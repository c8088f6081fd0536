import { describe, expect, it } from 'vitest';
import { redactSecretValues, secretValues } from '../../../lib/helm/redactSecretValues';

describe('redactSecretValues', () => {
  it("scrubs every value a Secret gave (not a ConfigMap's), longest first", () => {
    const values = secretValues([
      {
        source: 'Secret a/db key values.yaml',
        secret: true,
        content: 'db:\n  password: hunter2\n  pin: 12345\n',
      },
      { source: 'Secret a/db key token', secret: true, targetPath: 'api.token', content: '"tok-abc-def"' },
      { source: 'ConfigMap a/cm key values.yaml', secret: false, content: 'host: public.example\n' },
      { source: 'Secret a/x key values.yaml', secret: true, content: 'on: ok\n' },
    ]);
    expect(values).toEqual(['"tok-abc-def"', 'tok-abc-def', 'hunter2', '12345']);
    expect(redactSecretValues('bad password hunter2 for public.example, token tok-abc-def', values)).toBe(
      'bad password <redacted> for public.example, token <redacted>',
    );
  });

  it('takes what it can of a Secret that is not valid YAML (the engine refuses it without showing it)', () => {
    const values = secretValues([
      { source: 'Secret a/b key v', secret: true, content: 'a: [unclosed, hunter2' },
    ]);
    expect(redactSecretValues('x hunter2', values)).toBe('x <redacted>');
  });
});
