import { HttpRequest } from '@smithy/protocol-http';
import { describe, expect, it } from 'vitest';
import { eksToken, sigV4Signer } from '../../../lib/eks/eksToken';
import { EksTokenSource } from '../../../lib/eks/eksTokenSource';
import { stsEndpoint } from '../../../lib/eks/stsEndpoint';
import { verifyEksTokenFormat } from '../../support/eksTokenVerifier';

// AWS's published SigV4 test suite: credentials, date and expected signatures.
const suiteCredentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const suiteDate = new Date('2015-08-30T12:36:00Z');
const region = 'us-east-1';
const sts = stsEndpoint(region, {});
const stsHosts = ['sts.us-east-1.amazonaws.com', 'sts.us-east-1.api.aws', 'sts.amazonaws.com'];

const tokenAt = (signingDate: Date, sessionToken?: string) =>
  eksToken({
    cluster: 'prod-eu',
    region,
    credentials: { ...suiteCredentials, ...(sessionToken ? { sessionToken } : {}) },
    sts,
    signingDate,
  });

describe('SigV4 signer', () => {
  it.each([
    ['get-vanilla-query', {}, '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    [
      'get-vanilla-empty-query-key',
      { Param1: 'value1' },
      'a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb',
    ],
    [
      'get-vanilla-query-order-key-case',
      { Param2: 'value2', Param1: 'value1' },
      'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500',
    ],
  ])('signs AWS’s %s vector', async (_name, query, signature) => {
    const signed = await sigV4Signer(suiteCredentials, region, 'service').sign(
      new HttpRequest({
        method: 'GET',
        protocol: 'https:',
        hostname: 'example.amazonaws.com',
        path: '/',
        query,
        headers: { host: 'example.amazonaws.com' },
      }),
      { signingDate: suiteDate },
    );
    expect(signed.headers.authorization).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`,
    );
  });
});

describe('eksToken', () => {
  it('is a presigned regional STS GetCallerIdentity with exactly the query the verifier accepts', async () => {
    const { token, url, signedAt, refreshAt } = await tokenAt(suiteDate);
    expect(token.startsWith('k8s-aws-v1.')).toBe(true);
    expect(token).not.toContain('=');
    expect(Buffer.from(token.slice('k8s-aws-v1.'.length), 'base64url').toString()).toBe(url);
    const parsed = verifyEksTokenFormat(token, {
      stsHosts,
      now: new Date(suiteDate.getTime() + 14 * 60_000),
    });
    expect(parsed.origin + parsed.pathname).toBe('https://sts.us-east-1.amazonaws.com/');
    const query = Object.fromEntries(parsed.searchParams);
    expect(Object.keys(query).sort()).toEqual([
      'Action',
      'Version',
      'X-Amz-Algorithm',
      'X-Amz-Credential',
      'X-Amz-Date',
      'X-Amz-Expires',
      'X-Amz-Signature',
      'X-Amz-SignedHeaders',
    ]);
    expect(query).toMatchObject({
      Action: 'GetCallerIdentity',
      Version: '2011-06-15',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIDEXAMPLE/20150830/us-east-1/sts/aws4_request',
      'X-Amz-Date': '20150830T123600Z',
      'X-Amz-Expires': '60',
      'X-Amz-SignedHeaders': 'host;x-k8s-aws-id',
    });
    expect(query['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(signedAt).toEqual(suiteDate);
    expect(refreshAt.getTime() - suiteDate.getTime()).toBe(14 * 60_000);
  });

  it('signs the cluster name: another cluster, another signature', async () => {
    const a = new URL((await tokenAt(suiteDate)).url).searchParams.get('X-Amz-Signature');
    const other = await eksToken({
      cluster: 'prod-us',
      region,
      credentials: suiteCredentials,
      sts,
      signingDate: suiteDate,
    });
    expect(new URL(other.url).searchParams.get('X-Amz-Signature')).not.toBe(a);
  });

  it('carries a role session token in the query, which the verifier allows', async () => {
    const { token } = await tokenAt(suiteDate, 'FwoGZXIvYXdz/session+token=');
    const url = verifyEksTokenFormat(token, { stsHosts, now: suiteDate });
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('FwoGZXIvYXdz/session+token=');
    expect(token.length).toBeLessThanOrEqual(4096);
  });

  it('is refused by the verifier after its 15 minutes, and for a host that is not STS', async () => {
    const { token } = await tokenAt(suiteDate);
    expect(() =>
      verifyEksTokenFormat(token, { stsHosts, now: new Date(suiteDate.getTime() + 15 * 60_000 + 1000) }),
    ).toThrow('X-Amz-Date parameter is expired');
    expect(() =>
      verifyEksTokenFormat(token, { stsHosts: ['sts.eu-west-1.amazonaws.com'], now: suiteDate }),
    ).toThrow('unexpected hostname "sts.us-east-1.amazonaws.com"');
    const unsigned = `k8s-aws-v1.${Buffer.from('https://sts.us-east-1.amazonaws.com/?Action=GetCallerIdentity&X-Amz-Expires=60&X-Amz-Date=20150830T123600Z&X-Amz-SignedHeaders=host').toString('base64url')}`;
    expect(() => verifyEksTokenFormat(unsigned, { stsHosts, now: suiteDate })).toThrow(
      'client did not sign the x-k8s-aws-id header',
    );
  });

  it('uses the regional STS endpoint, or the SDK’s endpoint override', () => {
    expect(stsEndpoint('eu-west-1', {}).href).toBe('https://sts.eu-west-1.amazonaws.com/');
    expect(stsEndpoint('cn-north-1', {}).href).toBe('https://sts.cn-north-1.amazonaws.com.cn/');
    expect(stsEndpoint('eu-west-1', { AWS_ENDPOINT_URL: 'http://127.0.0.1:5000' }).href).toBe(
      'http://127.0.0.1:5000/',
    );
    expect(
      stsEndpoint('eu-west-1', { AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_STS: 'http://b:2' }).href,
    ).toBe('http://b:2/');
  });
});

describe('EksTokenSource', () => {
  it('keeps a token for 14 minutes, then presigns a new one (a warm container never sends an expired one)', async () => {
    let now = suiteDate;
    const source = new EksTokenSource(
      { cluster: 'prod-eu', region, credentials: suiteCredentials, sts },
      () => now,
    );
    const first = await source.token();
    now = new Date(suiteDate.getTime() + 14 * 60_000 - 1000);
    expect(await source.token()).toBe(first);
    now = new Date(suiteDate.getTime() + 14 * 60_000);
    const second = await source.token();
    expect(second).not.toBe(first);
    expect(() => verifyEksTokenFormat(first, { stsHosts, now: new Date(now.getTime() + 61_000) })).toThrow(
      'expired',
    );
    verifyEksTokenFormat(second, { stsHosts, now: new Date(now.getTime() + 14 * 60_000) });
    const concurrent = await Promise.all([source.token(), source.token()]);
    expect(concurrent).toEqual([second, second]);
  });

  it('tries again after credentials could not be had', async () => {
    let calls = 0;
    const credentials = async () => {
      calls++;
      if (calls === 1) throw new Error('no credentials yet');
      return suiteCredentials;
    };
    const source = new EksTokenSource({ cluster: 'prod-eu', region, credentials, sts }, () => suiteDate);
    await expect(source.token()).rejects.toThrow('no credentials yet');
    expect((await source.token()).startsWith('k8s-aws-v1.')).toBe(true);
  });
});
