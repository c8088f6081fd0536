import pLimit from 'p-limit';
import { OwnershipError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { splitApiVersion } from '../manifests';
import { childOwnerReference, decideOwnership, type TrackOwner } from '../ownership/ownershipTable';
import { defaultConcurrency } from '../settings/defaults';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { deleteCommands, type FarosObjectRef } from './deleteCommands';
import { ensureTrack, ensureTracker } from './ensureLightkeeperObjects';
import { handOverChild } from './handOverChild';
import { ensureCredentials } from './migrationCredentials';
import type { ChildPlan } from './planChild';
import { type MigrationPlan, type TrackPlan, trackOwnerOf } from './planMigration';

export type ChildOutcomeKind =
  | 'handed over'
  | 'already ours'
  | 'missing'
  | 'conflict'
  | 'problem'
  | 'failed'
  | 'interrupted';

export interface ChildOutcome {
  subject: string;
  faros: string;
  outcome: ChildOutcomeKind;
  writes: number;
  reason?: string | undefined;
}

export interface TrackOutcome {
  label: string;
  target: TrackPlan['target'];
  blocked: string[];
  error?: string | undefined;
  children: ChildOutcome[];
}

export interface MigrationResult {
  tracks: TrackOutcome[];
  /** The Faros objects now safe to delete, as kubectl commands (orphan cascade). */
  deleteCommands: string[];
  /** Faros objects left in place, and why. */
  leftInPlace: string[];
  interrupted: boolean;
}

export interface ExecuteOptions {
  config: DeploymentConfig;
  concurrency?: number;
  /** Aborting stops before the next write; a rerun continues where this one stopped. */
  signal?: AbortSignal;
}

/** A child whose Faros tracking object can go: it is ours now, or there is nothing to hand over. */
const released = (o: ChildOutcomeKind) => o === 'handed over' || o === 'already ours' || o === 'missing';

async function migrateChild(
  client: KubeClient,
  owner: TrackOwner,
  config: DeploymentConfig,
  c: ChildPlan,
  signal: AbortSignal | undefined,
): Promise<ChildOutcome> {
  const base = { subject: c.subject, faros: c.faros.label };
  if (c.state === 'problem' || c.state === 'conflict')
    return { ...base, outcome: c.state, writes: 0, reason: c.reason };
  if (c.state === 'missing' || !c.target) return { ...base, outcome: 'missing', writes: 0 };
  try {
    const t = c.target;
    const version = splitApiVersion(t.apiVersion)?.version ?? '';
    const decision = decideOwnership(owner, config, {
      ref: {
        apiVersion: t.apiVersion,
        group: t.group,
        version,
        kind: t.kind,
        namespace: t.namespace,
        name: t.name,
      },
      namespaced: t.namespace !== undefined,
    });
    if (decision.verdict === 'ignore') throw new OwnershipError(decision.reason, { subject: c.subject });
    if (signal?.aborted) return { ...base, outcome: 'interrupted', writes: 0 };
    const trackerUid = await ensureTracker(client, owner, decision, t, c.faros);
    const ours = childOwnerReference(decision, trackerUid, c.subject);
    const result = await handOverChild(client, t, c.subject, c.faros.uid, ours, signal);
    return { ...base, ...result };
  } catch (e) {
    return { ...base, outcome: 'failed', writes: 0, reason: (e as Error).message };
  }
}

/**
 * Carries out a plan: per unblocked track, its credentials Secret, the lightkeeper track, then
 * each child's tracking object and hand-over (`concurrency` at once). Idempotent: every object is
 * found before it is created, and each child resumes at the step it is at. Returns per-object
 * outcomes and the kubectl commands that delete exactly the Faros objects now released.
 */
export async function executeMigration(
  client: KubeClient,
  plan: MigrationPlan,
  options: ExecuteOptions,
): Promise<MigrationResult> {
  const limit = pLimit(options.concurrency ?? defaultConcurrency);
  const tracks: TrackOutcome[] = [];
  for (const p of plan.tracks) {
    const outcome: TrackOutcome = { label: p.label, target: p.target, blocked: p.blocked, children: [] };
    tracks.push(outcome);
    if (p.blocked.length > 0 || options.signal?.aborted) continue;
    try {
      if (p.credentials) await ensureCredentials(client, p.credentials, p.label);
      const owner = trackOwnerOf(p, p.existingUid ?? (await ensureTrack(client, p)));
      outcome.children = await Promise.all(
        p.children.map((c) => limit(() => migrateChild(client, owner, options.config, c, options.signal))),
      );
    } catch (e) {
      outcome.error = (e as Error).message;
    }
  }
  return { tracks, ...releasedObjects(plan, tracks), interrupted: options.signal?.aborted ?? false };
}

/** Which Faros objects may go, and which stay with why, given the outcomes (or a plan's prediction). */
export function releasedObjects(
  plan: MigrationPlan,
  outcomes: readonly TrackOutcome[],
): { deleteCommands: string[]; leftInPlace: string[] } {
  const gone: FarosObjectRef[] = [];
  const leftInPlace: string[] = [];
  for (const [i, p] of plan.tracks.entries()) {
    const o = outcomes[i] as TrackOutcome;
    if (o.blocked.length > 0 || o.error || o.children.length !== p.children.length) {
      leftInPlace.push(`${p.label} and its ${p.children.length} tracking object(s): not migrated`);
      continue;
    }
    let all = true;
    for (const [j, c] of o.children.entries()) {
      const f = (p.children[j] as ChildPlan).faros;
      if (released(c.outcome)) gone.push({ kind: f.kind, namespace: f.namespace, name: f.name });
      else {
        all = false;
        leftInPlace.push(`${c.faros}: ${c.subject} ${c.outcome}${c.reason ? `: ${c.reason}` : ''}`);
      }
    }
    if (all) gone.push({ kind: p.source.kind, namespace: p.source.namespace, name: p.source.name });
    else leftInPlace.push(`${p.label}: some of its tracking objects stay`);
  }
  for (const u of plan.unowned) leftInPlace.push(`${u}: no Faros track controls it`);
  return { deleteCommands: deleteCommands(gone), leftInPlace };
}

/** What the plan predicts, as outcomes: each child ends handed over unless it is a problem or conflict. */
export function predictedOutcomes(plan: MigrationPlan): TrackOutcome[] {
  return plan.tracks.map((p) => ({
    label: p.label,
    target: p.target,
    blocked: p.blocked,
    children:
      p.blocked.length > 0
        ? []
        : p.children.map((c) => ({
            subject: c.subject,
            faros: c.faros.label,
            outcome:
              c.state === 'problem' || c.state === 'conflict' || c.state === 'missing'
                ? c.state
                : c.state === 'done'
                  ? 'already ours'
                  : 'handed over',
            writes: 0,
            reason: c.reason,
          })),
  }));
}
