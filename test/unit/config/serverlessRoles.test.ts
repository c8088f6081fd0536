import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// serverless.yml as deployed: each function's role and what it may do. The webhook faces the
// internet, so it must not be able to read the reconcile function's kubeconfig.

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}
/** A statement present only when a CloudFormation condition holds: `Fn::If: [condition, statement, NoValue]`. */
interface ConditionalStatement {
  'Fn::If': [string, Statement, { Ref: 'AWS::NoValue' }];
}
interface ServerlessFile {
  provider: { environment?: Record<string, string>; iam?: unknown };
  functions: Record<
    string,
    {
      role?: string;
      environment?: Record<string, string>;
      reservedConcurrency?: number;
      maximumRetryAttempts?: number;
      maximumEventAge?: number;
      destinations?: { onFailure?: { type: string; arn: unknown } };
    }
  >;
  resources: {
    Conditions?: Record<string, unknown>;
    Resources: Record<
      string,
      {
        Type: string;
        Properties: {
          Policies: Array<{ PolicyDocument: { Statement: Array<Statement | ConditionalStatement> } }>;
          ManagedPolicyArns?: unknown;
          QueueName?: string;
          MessageRetentionPeriod?: number;
        };
      }
    >;
  };
}

const sls = parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'serverless.yml'), 'utf8'),
) as ServerlessFile;
/** `${name}`: a Serverless variable, or a `Ref` as `arns` writes it. */
const v = (name: string) => `\${${name}}`;
const stage = `/lightkeeper/${v('sls:stage')}`;
const ssmArn = `arn:${v('AWS::Partition')}:ssm:${v('AWS::Region')}:${v('AWS::AccountId')}:parameter`;

/** A Resource as one string per ARN: `Fn::Join` joined, `Ref: X` written `${X}`. */
function arns(resource: unknown): string[] {
  if (Array.isArray(resource)) return resource.flatMap(arns);
  if (typeof resource === 'string') return [resource];
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) throw new Error(`unexpected resource ${JSON.stringify(resource)}`);
  const part = (p: unknown) => (typeof p === 'string' ? p : `\${${(p as { Ref: string }).Ref}}`);
  return [join[1].map(part).join(join[0])];
}

/** A role's statements as deployed with (`eks`) or without LIGHTKEEPER_EKS_CLUSTER. */
function statements(fn: string, eks = false): Statement[] {
  const role = sls.functions[fn]?.role;
  if (!role) throw new Error(`function ${fn} has no role of its own`);
  const properties = sls.resources.Resources[role]?.Properties;
  expect(properties?.ManagedPolicyArns, `${role} attaches no managed policy`).toBeUndefined();
  return (properties?.Policies.flatMap((p) => p.PolicyDocument.Statement) ?? []).flatMap((s) => {
    if (!('Fn::If' in s)) return [s];
    const [condition, statement, otherwise] = s['Fn::If'];
    expect(otherwise).toEqual({ Ref: 'AWS::NoValue' });
    // The KMS keys' statement has its own test: test/unit/config/serverlessKms.test.ts.
    if (condition === 'UseKmsKeys') return [];
    expect(condition).toBe('UseEksCluster');
    return eks ? [statement] : [];
  });
}

const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** The SSM parameter paths a function's role may read. */
const readableParameters = (fn: string) =>
  statements(fn)
    .filter((s) => actions(s).some((a) => a.startsWith('ssm:')))
    .flatMap((s) => arns(s.Resource))
    .map((arn) => {
      expect(arn.startsWith(ssmArn), arn).toBe(true);
      return arn.slice(ssmArn.length);
    })
    .sort();

/** The SSM parameters a function is configured to read (provider environment, then its own). */
function configuredParameters(fn: string): Record<string, string> {
  const env = { ...sls.provider.environment, ...sls.functions[fn]?.environment };
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.endsWith('_SSM_PARAMETER')));
}

describe('serverless.yml IAM', () => {
  it('lets the webhook read only its own secrets and its own kubeconfig', () => {
    expect(readableParameters('webhook')).toEqual([
      `${stage}/webhook-kubeconfig`,
      `${stage}/webhook-secret`,
      `${stage}/webhook-secret-previous`,
    ]);
    expect(configuredParameters('webhook')).toEqual({
      WEBHOOK_SECRET_SSM_PARAMETER: `${stage}/webhook-secret`,
      WEBHOOK_SECRET_PREVIOUS_SSM_PARAMETER: v("env:WEBHOOK_SECRET_PREVIOUS_SSM_PARAMETER, ''"),
      WEBHOOK_KUBECONFIG_SSM_PARAMETER: `${stage}/webhook-kubeconfig`,
    });
  });

  it('lets the sweep function read only its own kubeconfig, never the reconciler’s', () => {
    expect(readableParameters('sweep')).toEqual([`${stage}/sweep-kubeconfig`]);
    expect(configuredParameters('sweep')).toEqual({
      SWEEP_KUBECONFIG_SSM_PARAMETER: `${stage}/sweep-kubeconfig`,
    });
    expect(readableParameters('sweep')).not.toContain(`${stage}/kubeconfig`);
  });

  it('lets no function but the reconcile function read the reconciler’s kubeconfig', () => {
    for (const fn of Object.keys(sls.functions).filter((f) => f !== 'reconcile')) {
      expect(readableParameters(fn), fn).not.toContain(`${stage}/kubeconfig`);
      expect(Object.values(configuredParameters(fn)), fn).not.toContain(`${stage}/kubeconfig`);
    }
  });

  it('lets the reconcile function read the kubeconfig and, when configured, the GitHub token', () => {
    expect(readableParameters('reconcile')).toEqual([`${stage}/github-token`, `${stage}/kubeconfig`]);
    expect(configuredParameters('reconcile')).toEqual({
      KUBECONFIG_SSM_PARAMETER: `${stage}/kubeconfig`,
      GITHUB_TOKEN_SSM_PARAMETER: v("env:GITHUB_TOKEN_SSM_PARAMETER, ''"),
    });
  });

  it('grants each role only the actions its function performs, on named resources', () => {
    const logs = ['logs:CreateLogStream', 'logs:PutLogEvents'];
    const ssm = ['ssm:GetParameter', 'ssm:GetParameters'];
    const invoke = ['lambda:InvokeFunction'];
    const expected: Record<string, string[]> = {
      webhook: [...logs, ...ssm, ...invoke],
      // Itself, for continuations; and its on-failure queue.
      reconcile: [...logs, ...ssm, ...invoke, 'sqs:SendMessage'],
      sweep: [...logs, ...ssm, ...invoke],
    };
    expect(Object.keys(sls.functions).sort()).toEqual(Object.keys(expected).sort());
    expect(sls.provider.iam).toBeUndefined();
    for (const [fn, allowed, eks] of [
      ...Object.entries(expected).map(([fn, a]) => [fn, a, false] as const),
      ...Object.entries(expected).map(([fn, a]) => [fn, [...a, 'eks:DescribeCluster'], true] as const),
    ]) {
      const granted = statements(fn, eks);
      expect(granted.every((s) => s.Effect === 'Allow')).toBe(true);
      expect(granted.flatMap(actions).sort(), fn).toEqual([...allowed].sort());
      for (const arn of granted.flatMap((s) => arns(s.Resource))) {
        expect(arn.replace(/\$\{[^}]*\}/g, ''), `${fn}: ${arn}`).not.toContain('*:');
        if (!arn.includes(':log-group:')) expect(arn, `${fn}: ${arn}`).not.toContain('*');
      }
      for (const arn of granted
        .filter((s) => actions(s).includes('lambda:InvokeFunction'))
        .flatMap((s) => arns(s.Resource)))
        expect(arn.endsWith(`:function:${v('self:service')}-${v('sls:stage')}-reconcile`), arn).toBe(true);
    }
  });

  it('lets each role describe the one EKS cluster LIGHTKEEPER_EKS_CLUSTER names, and only when it is set', () => {
    const cluster = v('self:provider.environment.LIGHTKEEPER_EKS_CLUSTER');
    expect(sls.provider.environment?.LIGHTKEEPER_EKS_CLUSTER).toBe(v("env:LIGHTKEEPER_EKS_CLUSTER, ''"));
    expect(sls.resources.Conditions?.UseEksCluster).toEqual({ 'Fn::Not': [{ 'Fn::Equals': [cluster, ''] }] });
    for (const fn of ['webhook', 'reconcile', 'sweep']) {
      const describes = (eks: boolean) =>
        statements(fn, eks).filter((s) => actions(s).some((a) => a.startsWith('eks:')));
      expect(describes(false), fn).toEqual([]);
      const [statement, ...more] = describes(true);
      expect(more, fn).toEqual([]);
      expect(actions(statement as Statement)).toEqual(['eks:DescribeCluster']);
      expect(arns(statement?.Resource)).toEqual([
        `arn:${v('AWS::Partition')}:eks:${v('AWS::Region')}:${v('AWS::AccountId')}:cluster/${cluster}`,
      ]);
    }
  });

  it('keeps a reconcile that failed every retry in an SQS queue only the reconcile role may send to', () => {
    const reconcile = sls.functions.reconcile;
    expect(reconcile?.maximumRetryAttempts).toBe(2);
    expect(reconcile?.maximumEventAge).toBe(3600);
    const onFailure = reconcile?.destinations?.onFailure;
    expect(onFailure?.type).toBe('sqs');
    const queueId = (onFailure?.arn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt'];
    expect(queueId?.[1]).toBe('Arn');
    const queue = sls.resources.Resources[queueId?.[0] as string];
    expect(queue?.Type).toBe('AWS::SQS::Queue');
    expect(queue?.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    const sends = (fn: string) =>
      statements(fn)
        .filter((s) => actions(s).includes('sqs:SendMessage'))
        .flatMap((s) => arns(s.Resource));
    expect(sends('reconcile')).toEqual([
      `arn:${v('AWS::Partition')}:sqs:${v('AWS::Region')}:${v('AWS::AccountId')}:${queue?.Properties.QueueName}`,
    ]);
    expect(sends('webhook')).toEqual([]);
    expect(sends('sweep')).toEqual([]);
  });

  it('caps concurrent reconciles, with the sweep’s fan-out below the cap', () => {
    const cap = sls.functions.reconcile?.reservedConcurrency;
    expect(cap).toBeTypeOf('number');
    expect(cap).toBeGreaterThan(0);
    expect(cap).toBeLessThanOrEqual(20);
    const fanOut = Number(sls.functions.sweep?.environment?.SWEEP_CONCURRENCY);
    expect(fanOut).toBeGreaterThan(0);
    expect(fanOut).toBeLessThan(cap as number);
  });
});
