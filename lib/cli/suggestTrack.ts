import { isLightkeeperError, TrackNotFoundError } from '../errors';
import type { TrackKind } from '../track/trackRef';
import { withUserClient } from './cliKube';
import { closestName } from './closestName';
import { listTrackObjects } from './listTrackObjects';

/** `GitTrack/ns/name` or `ClusterGitTrack/name` (how a TrackNotFoundError names its track). */
function trackOfSubject(subject: string | undefined) {
  const [kind, ...rest] = subject?.split('/') ?? [];
  if (kind === 'GitTrack' && rest.length === 2) return { kind, namespace: rest[0], name: rest[1] as string };
  if (kind === 'ClusterGitTrack' && rest.length === 1)
    return { kind, namespace: undefined, name: rest[0] as string };
  return undefined;
}

/**
 * A track that was not found, with the closest name of an existing track of its kind (and
 * namespace) as the hint: a typo names its fix. Any other error, or no close name, is returned as is.
 */
export async function withTrackSuggestion(e: unknown): Promise<unknown> {
  if (!isLightkeeperError(e) || e.code !== 'TrackNotFoundError' || e.hint) return e;
  const track = trackOfSubject(e.subject);
  if (!track) return e;
  try {
    const names = await withUserClient(async (client) =>
      (await listTrackObjects(client, { kinds: [track.kind as TrackKind], namespace: track.namespace })).map(
        (t) => t.metadata.name,
      ),
    );
    const near = closestName(track.name, names);
    const where = track.namespace ? ` in namespace ${track.namespace}` : '';
    const hint = near
      ? `did you mean ${track.kind.toLowerCase()}/${near}?`
      : names.length > 0
        ? `${track.kind}s${where}: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}`
        : `there is no ${track.kind}${where}`;
    return new TrackNotFoundError(e.message, { subject: e.subject, cause: e.cause, hint });
  } catch {
    return e;
  }
}
