type Env = Record<string, string | undefined>;

/**
 * The regional STS endpoint a token is presigned for, as aws-iam-authenticator presigns it
 * (`https://sts.<region>.amazonaws.com`, `.amazonaws.com.cn` in China): the EKS authenticator
 * accepts only STS hosts. `AWS_ENDPOINT_URL_STS`, then `AWS_ENDPOINT_URL`, override it the way the
 * SDK's clients read them (tests point them at a local AWS API).
 */
export function stsEndpoint(region: string, env: Env): URL {
  const override = env.AWS_ENDPOINT_URL_STS || env.AWS_ENDPOINT_URL;
  if (override) return new URL(override);
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return new URL(`https://sts.${region}.${suffix}/`);
}
