import { ConfigError } from '../errors';

type Env = Record<string, string | undefined>;

export interface EksSetting {
  cluster: string;
  region: string;
}

/** `LIGHTKEEPER_EKS_CLUSTER` and the function's region, or undefined when the setting is not used. */
export function eksSettingFrom(env: Env): EksSetting | undefined {
  const cluster = env.LIGHTKEEPER_EKS_CLUSTER;
  if (!cluster) return undefined;
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
  if (!region)
    throw new ConfigError(`LIGHTKEEPER_EKS_CLUSTER=${cluster} needs a region: set AWS_REGION`, {
      subject: 'LIGHTKEEPER_EKS_CLUSTER',
    });
  return { cluster, region };
}
