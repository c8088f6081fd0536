import { PayloadError } from '../errors';
import { isFullSha } from '../git/resolveReference';
import type { TrackKind, TrackRef } from '../track/trackRef';
import type { ReconcileMode, ReconcileRequest } from './types';

/** The payload of the reconcile function: a reconcile request, plus the push that caused it, if any. */
export interface ReconcileEvent extends ReconcileRequest {
  track: TrackRef;
  mode: ReconcileMode;
  reason: string;
  /**
   * Set by the webhook, for the commit-to-applied latency metric and to serve each delivery once
   * (`delivery`, GitHub's X-GitHub-Delivery). Never pins the commit.
   */
  push?: { after: string; committedAt?: string | undefined; delivery?: string | undefined } | undefined;
}

const kinds: readonly TrackKind[] = ['GitTrack', 'ClusterGitTrack'];
const modes: readonly ReconcileMode[] = ['apply', 'drift'];
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const deliveryId = /^[A-Za-z0-9-]{1,64}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates an invocation payload; refuses anything that is not exactly a reconcile request. */
export function parseReconcileEvent(event: unknown): ReconcileEvent {
  if (!isObject(event)) throw new PayloadError('reconcile event is not a JSON object');
  const { track, commit, mode = 'apply', reason = 'invoke', push, continuation, shard } = event;
  if (!isObject(track)) throw new PayloadError('reconcile event lacks track');
  const { kind, namespace, name } = track;
  if (!kinds.includes(kind as TrackKind))
    throw new PayloadError(`track.kind must be one of ${kinds.join(', ')}`);
  if (typeof name !== 'string' || !dnsSubdomain.test(name))
    throw new PayloadError('track.name is not a valid name');
  if (kind === 'GitTrack' && (typeof namespace !== 'string' || !dnsLabel.test(namespace))) {
    throw new PayloadError('a GitTrack needs track.namespace');
  }
  if (kind === 'ClusterGitTrack' && namespace !== undefined) {
    throw new PayloadError('a ClusterGitTrack has no namespace');
  }
  if (commit !== undefined && (typeof commit !== 'string' || !isFullSha(commit))) {
    throw new PayloadError('commit must be a full 40-character SHA');
  }
  if (continuation !== undefined && continuation !== true)
    throw new PayloadError('continuation must be true when present');
  if (continuation && commit === undefined) throw new PayloadError('a continuation names its commit');
  const parsedShard = parseShard(shard, commit, continuation);
  if (!modes.includes(mode as ReconcileMode))
    throw new PayloadError(`mode must be one of ${modes.join(', ')}`);
  if (typeof reason !== 'string') throw new PayloadError('reason must be a string');
  const parsed = parsePush(push);
  return {
    track: {
      kind: kind as TrackKind,
      namespace: kind === 'GitTrack' ? (namespace as string) : undefined,
      name,
    },
    commit: commit?.toLowerCase(),
    ...(continuation ? { continuation: true } : {}),
    ...(parsedShard ? { shard: parsedShard } : {}),
    mode: mode as ReconcileMode,
    reason,
    ...(parsed?.delivery ? { delivery: parsed.delivery } : {}),
    push: parsed,
  };
}

function parsePush(push: unknown): ReconcileEvent['push'] {
  if (!isObject(push) || typeof push.after !== 'string') return undefined;
  return {
    after: push.after,
    committedAt: typeof push.committedAt === 'string' ? push.committedAt : undefined,
    // GitHub's delivery GUIDs; anything else is not a delivery id and is dropped.
    delivery: typeof push.delivery === 'string' && deliveryId.test(push.delivery) ? push.delivery : undefined,
  };
}

const namespaceName = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?';
const shardId = new RegExp(`^${namespaceName}(?:~[0-9]{1,6}|\\.\\.${namespaceName})?$`);
const digest = /^[0-9a-f]{32}$/;

/** A shard run's keys (never manifests): its id (a namespace, `~i` for a part) and the plan's digest. */
function parseShard(shard: unknown, commit: unknown, continuation: unknown): ReconcileEvent['shard'] {
  if (shard === undefined) return undefined;
  if (!isObject(shard) || typeof shard.id !== 'string' || !shardId.test(shard.id))
    throw new PayloadError('shard.id must be a namespace, first..last namespaces, or namespace~part');
  if (typeof shard.planDigest !== 'string' || !digest.test(shard.planDigest))
    throw new PayloadError('shard.planDigest must be 32 hex digits');
  if (commit === undefined) throw new PayloadError('a shard names its commit');
  if (continuation) throw new PayloadError('a shard is not a continuation');
  return { id: shard.id, planDigest: shard.planDigest };
}
