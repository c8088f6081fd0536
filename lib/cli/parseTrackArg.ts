import { ConfigError } from '../errors';
import type { TrackRef } from '../track/trackRef';

/** `gittrack/NAME` (with `-n NS`), `gt/NAME`, `clustergittrack/NAME`, `cgt/NAME`. */
export function parseTrackArg(arg: string, namespace: string | undefined): TrackRef {
  const [type, name, ...rest] = arg.split('/');
  if (!type || !name || rest.length > 0)
    throw new ConfigError(`expected gittrack/NAME (gt/NAME) or clustergittrack/NAME (cgt/NAME), got ${arg}`);
  switch (type.toLowerCase()) {
    case 'gittrack':
    case 'gittracks':
    case 'gt':
      if (!namespace) throw new ConfigError(`${arg}: a GitTrack needs a namespace (-n NAMESPACE)`);
      return { kind: 'GitTrack', namespace, name };
    case 'clustergittrack':
    case 'clustergittracks':
    case 'cgt':
      return { kind: 'ClusterGitTrack', name };
    default:
      throw new ConfigError(
        `unknown track type ${type}: expected gittrack (gt) or clustergittrack (cgt), e.g. gt/NAME -n NAMESPACE or cgt/NAME`,
      );
  }
}
