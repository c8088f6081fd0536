import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpRequest } from '@smithy/protocol-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sigV4Signer } from '../../../lib/eks/eksToken';
import { expectKustomizeLayer, expectRunnableFunctions } from '../../support/deployableArtifacts';
import { freshClone } from '../../support/freshClone';
import { type MotoServer, startMoto } from '../../support/motoServer';
import { stackArtifacts } from '../../support/packagedStack';
import { type RunResult, runWithDeadline } from '../../support/runWithDeadline';

// `npm run deploy` on a fresh clone (no .layers/, .esbuild/ or .serverless/), against moto's
// CloudFormation and S3: it builds everything, creates the stack's deployment bucket and uploads the
// artifacts with the template. moto's ValidateTemplate then refuses osls's template (it runs
// cfn-lint and fails on its warnings: W3005, DependsOn beside GetAtt, which osls itself writes;
// W8003, the EKS condition constant while LIGHTKEEPER_EKS_CLUSTER is empty; CloudFormation accepts
// both), so the run ends there: what is checked is what it uploaded, read back from the bucket.

const stage = 'lk-deploy-test';
const work = mkdtempSync(join(tmpdir(), 'deploy-moto-'));
const tree = join(work, 'tree');
const tmp = join(work, 'tmp');
const bucketCopy = join(work, 'bucket');
const scratch = join(work, 'unzipped');
let moto: MotoServer;
let deploy: RunResult;

// A signed S3 GET (moto serves objects to signed requests only); names are plain, so the XML is
// read with patterns.
const s3 = async (path: string, query: Record<string, string> = {}) => {
  const url = new URL(moto.endpoint);
  const signer = sigV4Signer({ accessKeyId: 'testing', secretAccessKey: 'testing' }, 'us-east-1', 's3');
  const signed = await signer.sign(
    new HttpRequest({
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path,
      query,
      headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    }),
  );
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${moto.endpoint}${path}${search ? `?${search}` : ''}`, {
    headers: signed.headers,
  });
  if (!response.ok) throw new Error(`S3 GET ${path}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
};
const tagged = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1] as string);

beforeAll(async () => {
  moto = await startMoto();
  freshClone(tree);
  mkdirSync(tmp);
  mkdirSync(bucketCopy);
  mkdirSync(scratch);
  const started = Date.now();
  deploy = await runWithDeadline('npm', ['run', 'deploy', '--', '--stage', stage, '--region', 'us-east-1'], {
    cwd: tree,
    // npm on Node 22 keeps a compile cache of its own modules in the OS temp dir: not ours to check.
    env: {
      ...process.env,
      ...moto.env,
      TMPDIR: tmp,
      SLS_TELEMETRY_DISABLED: '1',
      NODE_DISABLE_COMPILE_CACHE: '1',
    },
    timeoutMs: 480_000,
  });
  console.error(
    `[deploy] npm run deploy on a fresh clone, against moto: ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
}, 600_000);
afterAll(async () => {
  await moto?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run deploy on a fresh clone', () => {
  it('uploads every artifact the template it deploys names, each holding its handler or the arm64 engine', async () => {
    expect(deploy.timedOut, deploy.output).toBe(false);
    expect(deploy.output).not.toContain('No file matches include / exclude patterns');
    // Anything but moto's template validation, the step after the upload, is a failure of ours.
    if (deploy.code !== 0) expect(deploy.output).toContain('The CloudFormation template is invalid');

    const buckets = tagged((await s3('/')).toString(), 'Name');
    const bucket = buckets.find((b) => b.includes('-serverlessdeploymentbucket-'));
    expect(bucket, buckets.join(', ')).toBeDefined();
    const listing = await s3(`/${bucket}`, { 'list-type': '2', prefix: `serverless/lightkeeper/${stage}/` });
    const keys = tagged(listing.toString(), 'Key');
    // One deployment: one artifact directory, every file of it copied here by its name.
    expect(new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/')))).size).toBe(1);
    for (const key of keys)
      writeFileSync(join(bucketCopy, key.slice(key.lastIndexOf('/') + 1)), await s3(`/${bucket}/${key}`));
    const read = (file: string) => JSON.parse(readFileSync(join(bucketCopy, file), 'utf8'));
    const stack = stackArtifacts(
      read('compiled-cloudformation-template.json'),
      read('serverless-state.json'),
      bucketCopy,
    );

    expect(stack.uploadedKeys.length).toBeGreaterThan(0);
    for (const key of stack.uploadedKeys) expect(keys, key).toContain(key);
    expect(stack.functions.map((f) => f.logicalId).sort()).toEqual([
      'ReconcileLambdaFunction',
      'SweepLambdaFunction',
      'WebhookLambdaFunction',
    ]);
    await expectRunnableFunctions(stack, scratch);
    await expectKustomizeLayer(stack, scratch);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
