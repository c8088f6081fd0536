import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeEksCluster } from '../../../lib/eks/describeEksCluster';
import { eksKubeClient } from '../../../lib/eks/eksKubeClient';
import { eksToken } from '../../../lib/eks/eksToken';
import { stsEndpoint } from '../../../lib/eks/stsEndpoint';
import { ConfigError } from '../../../lib/errors';
import { KubeClient } from '../../../lib/kube/kubeClient';
import { requestServiceAccountToken } from '../../../lib/kube/serviceAccountToken';
import { whoAmI } from '../../../lib/kube/whoAmI';
import { kubeClientFrom } from '../../../lib/lambda/kubeClientCache';
import { freshNamespace, kubeClient, kubeconfig } from '../../support/cluster';
import { verifyEksTokenFormat } from '../../support/eksTokenVerifier';
import { type MotoServer, startMoto } from '../../support/motoServer';

// EKS from Lambda against moto's EKS and STS: DescribeCluster, the presigned token replayed to
// STS as the EKS authenticator replays it, botocore (what `aws eks get-token` runs) as the oracle
// for the signature, and a client whose token is renewed on a real API server.

let moto: MotoServer;
beforeAll(async () => {
  moto = await startMoto();
});
afterAll(() => moto?.stop());

const region = 'us-east-1';
const createCluster = (name: string) =>
  new EKSClient({
    region,
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
  }).send(
    new CreateClusterCommand({
      name,
      roleArn: 'arn:aws:iam::123456789012:role/eks-cluster',
      resourcesVpcConfig: { subnetIds: ['subnet-1', 'subnet-2'] },
    }),
  );

describe('EKS access', () => {
  it('describes the cluster and builds its client as the function does', async () => {
    const { cluster } = await createCluster('prod-eu');
    for (const [k, val] of Object.entries({
      ...moto.env,
      LIGHTKEEPER_EKS_CLUSTER: 'prod-eu',
      KUBECONFIG: '',
    }))
      vi.stubEnv(k, val);
    try {
      const eks = new EKSClient({ region });
      const access = await describeEksCluster(eks, 'prod-eu');
      eks.destroy();
      expect(access).toEqual({
        name: 'prod-eu',
        endpoint: cluster?.endpoint,
        caData: cluster?.certificateAuthority?.data,
      });
      // The functions' path: LIGHTKEEPER_EKS_CLUSTER wins over a kubeconfig parameter, one client per container.
      vi.stubEnv('KUBECONFIG_SSM_PARAMETER', '/lightkeeper/test/kubeconfig');
      const client = await kubeClientFrom('kubeconfig', {}, process.env);
      expect(client.server).toBe(cluster?.endpoint?.replace(/\/$/, ''));
      expect(await kubeClientFrom('kubeconfig', {}, process.env)).toBe(client);
      await client.close();
      const missing = await eksKubeClient({ cluster: 'no-such-cluster', region }, { env: process.env }).catch(
        (e) => e,
      );
      expect(missing).toBeInstanceOf(ConfigError);
      expect(missing.message).toContain('cannot describe the EKS cluster no-such-cluster');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('makes a token that passes the verifier’s checks and that STS answers', async () => {
    const sts = stsEndpoint(region, moto.env);
    const { token } = await eksToken({
      cluster: 'prod-eu',
      region,
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing', sessionToken: 'session' },
      sts,
    });
    // The verifier's own checks, with moto's STS as the one STS host (plain http on loopback).
    const url = verifyEksTokenFormat(token, { stsHosts: [sts.host], scheme: 'http:' });
    // Then what the verifier does with it: GET the presigned URL with the cluster's id header.
    const response = await fetch(url, { headers: { 'x-k8s-aws-id': 'prod-eu', accept: 'application/json' } });
    const body = await response.text();
    expect(response.status, body).toBe(200);
    expect(body).toMatch(/<GetCallerIdentityResult>.*<Arn>arn:aws:sts::\d{12}:[^<]+<\/Arn>/s);
  });

  it('signs exactly as botocore does for `aws eks get-token`', async () => {
    const credentials = {
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      sessionToken: 'FwoG/session+token=',
    };
    const signingDate = new Date('2026-11-30T12:36:00Z');
    const ours = await eksToken({
      cluster: 'prod-eu',
      region,
      credentials,
      sts: stsEndpoint(region, {}),
      signingDate,
    });
    const venv = join(moto.venv, 'bin', 'python');
    const { stdout } = await promisify(execFile)(venv, ['-c', botocoreGetToken, 'prod-eu', region], {
      env: {
        PATH: process.env.PATH,
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        AWS_SESSION_TOKEN: credentials.sessionToken,
        AWS_STS_REGIONAL_ENDPOINTS: 'regional',
        AWS_CONFIG_FILE: '/dev/null',
        AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
      },
    });
    const theirs = new URL(stdout.trim());
    const mine = new URL(ours.url);
    expect(mine.origin + mine.pathname).toBe(theirs.origin + theirs.pathname);
    expect(Object.fromEntries(mine.searchParams)).toEqual(Object.fromEntries(theirs.searchParams));
  });

  it('renews the token of a client it keeps, request by request (a warm container)', async () => {
    const admin = await kubeClient();
    const namespace = await freshNamespace(admin, 'eks');
    const tokenOf = async (name: string) => {
      await admin.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
      });
      return (await requestServiceAccountToken(admin, { namespace, name }, 600)).token;
    };
    const tokens = [await tokenOf('first'), await tokenOf('second')];
    let current = 0;
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig());
    const cluster = kc.getCurrentCluster();
    const caData = cluster?.caData ?? '';
    const client = KubeClient.withBearerSource(
      cluster?.server ?? '',
      caData,
      async () => tokens[current] as string,
    );
    try {
      expect(await whoAmI(client)).toBe(`system:serviceaccount:${namespace}:first`);
      current = 1;
      expect(await whoAmI(client)).toBe(`system:serviceaccount:${namespace}:second`);
    } finally {
      await client.close();
      await admin.request('DELETE', `/api/v1/namespaces/${namespace}`);
      await admin.close();
    }
  });
});

// What `aws eks get-token` does (awscli's customizations/eks/get_token.py): presign STS
// GetCallerIdentity for 60 s with the x-k8s-aws-id header injected before signing; the clock fixed.
const botocoreGetToken = `
import sys, datetime, botocore.auth, botocore.session
botocore.auth.get_current_datetime = lambda *a, **k: datetime.datetime(2026, 11, 30, 12, 36, 0)
cluster, region = sys.argv[1], sys.argv[2]
sts = botocore.session.get_session().create_client("sts", region_name=region)
def provide(params, context, **kw):
    context["x-k8s-aws-id"] = params.pop("x-k8s-aws-id")
def inject(request, **kw):
    request.headers["x-k8s-aws-id"] = request.context["x-k8s-aws-id"]
sts.meta.events.register("provide-client-params.sts.GetCallerIdentity", provide)
sts.meta.events.register("before-sign.sts.GetCallerIdentity", inject)
print(sts.generate_presigned_url("get_caller_identity", Params={"x-k8s-aws-id": cluster}, ExpiresIn=60, HttpMethod="GET"))
`;
