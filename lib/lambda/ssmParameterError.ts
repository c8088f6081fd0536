import { ConfigError } from '../errors';

interface MiddyFailure {
  message?: string;
  cause?: { package?: string; data?: unknown[] };
}

/**
 * The settings a function could not read from SSM, as a ConfigError naming the parameters, from
 * the error @middy/ssm raises (`Failed to resolve internal values`, one `InvalidParameter <name>`
 * per missing parameter, or the SDK's error when SSM refused the request); undefined for any other
 * error.
 */
export function ssmParameterError(error: unknown): ConfigError | undefined {
  const failure = error as MiddyFailure | undefined;
  if (failure?.cause?.package !== '@middy/util' || !Array.isArray(failure.cause.data)) return undefined;
  const reasons = failure.cause.data as Array<{
    message?: string;
    name?: string;
    cause?: { package?: string };
  }>;
  // Its own InvalidParameter errors, or an AWS SDK error (which carries `$metadata`) from GetParameters.
  if (
    !reasons.every(
      (r) => r?.cause?.package === '@middy/ssm' || (typeof r === 'object' && r !== null && '$metadata' in r),
    )
  )
    return undefined;
  const missing = reasons
    .map((r) => /^InvalidParameter (.+)$/.exec(r?.message ?? '')?.[1])
    .filter((name): name is string => name !== undefined);
  const refused = reasons.filter((r) => !/^InvalidParameter /.test(r?.message ?? ''));
  const parts = [
    ...(missing.length > 0 ? [`SSM parameter ${missing.join(', ')} does not exist`] : []),
    ...refused.map((r) => `SSM refused to answer: ${r?.name ?? 'Error'}: ${r?.message ?? String(r)}`),
  ];
  return new ConfigError(parts.join('; '), {
    subject: missing.join(', ') || 'SSM',
    cause: error,
    hint: 'create the parameter (aws ssm put-parameter --type SecureString --name NAME --value …) or correct the *_SSM_PARAMETER setting, and check the function role may ssm:GetParameters on it',
  });
}
