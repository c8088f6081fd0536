import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kmsKeyArns } from '../../../infra/kms-key-arns.mjs';

// Issue 22: the function's role may call kms:Decrypt on named key ARNs only, never `*`; with no key
// named, no KMS statement at all.

const sls = parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'serverless.yml'), 'utf8')) as {
  custom: { kmsKeyArns: string };
  resources: { Conditions: Record<string, unknown>; Resources: Record<string, unknown> };
};

/** The Serverless variable the key ARNs are written as. */
const setting = `\${self:custom.kmsKeyArns}`;

type Statement = { Action: string | string[]; Resource: unknown };

/** Every IAM statement of the stack's roles, a conditional one (`Fn::If`) as the statement it adds. */
function statements(): Array<{ role: string; statement: Statement; condition?: string }> {
  return Object.entries(sls.resources.Resources).flatMap(([role, resource]) => {
    const policies = (resource as { Properties?: { Policies?: unknown[] } }).Properties?.Policies ?? [];
    return policies.flatMap((p) =>
      (p as { PolicyDocument: { Statement: unknown[] } }).PolicyDocument.Statement.map((s) => {
        const conditional = (s as { 'Fn::If'?: [string, Statement, unknown] })['Fn::If'];
        return conditional
          ? { role, statement: conditional[1], condition: conditional[0] }
          : { role, statement: s as Statement };
      }),
    );
  });
}

const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(strings)
        : [];

describe('KMS in serverless.yml', () => {
  const kms = statements().filter(({ statement }) => actions(statement).some((a) => a.startsWith('kms:')));

  it("grants kms:Decrypt to the reconcile role alone, on the setting's key ARNs, never on `*`", () => {
    expect(kms.map(({ role, condition }) => ({ role, condition }))).toEqual([
      { role: 'ReconcileRole', condition: 'UseKmsKeys' },
    ]);
    for (const { statement } of kms) {
      expect(actions(statement)).toEqual(['kms:Decrypt']);
      expect(strings(statement.Resource).filter((r) => r.includes('*'))).toEqual([]);
      expect(statement.Resource).toEqual({ 'Fn::Split': [',', setting] });
    }
    expect(sls.custom.kmsKeyArns).toBe(`\${env:LIGHTKEEPER_KMS_KEY_ARNS, ''}`);
  });

  it('has no KMS statement when no key is named', () => {
    expect(sls.resources.Conditions.UseKmsKeys).toEqual({
      'Fn::Not': [{ 'Fn::Equals': [setting, ''] }],
    });
  });

  it('accepts only whole key ARNs in LIGHTKEEPER_KMS_KEY_ARNS (checked before packaging)', () => {
    const key = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    expect(kmsKeyArns('')).toEqual([]);
    expect(kmsKeyArns(`${key},${key.replace('eu-west-1', 'us-east-1')}`)).toHaveLength(2);
    for (const bad of [
      '*',
      'arn:aws:kms:eu-west-1:123456789012:key/*',
      'arn:aws:kms:*:*:key/x',
      'arn:aws:kms:eu-west-1:123456789012:alias/sops',
      `${key}, ${key}`,
      `${key},*`,
    ])
      expect(kmsKeyArns(bad)).toBeInstanceOf(Error);
  });
});
