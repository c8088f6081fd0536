import type { TrackOutcome } from './executeMigration';
import type { MigrationReport } from './migrateFaros';
import type { TrackPlan } from './planMigration';

const targetLabel = (t: TrackPlan['target']) => `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;

function counts(o: TrackOutcome, plan: TrackPlan, dryRun: boolean): string {
  const tally = new Map<string, number>();
  const add = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
  if (dryRun)
    for (const c of plan.children)
      add(
        c.state === 'add' || c.state === 'release' || c.state === 'control'
          ? `to hand over (from step ${c.state})`
          : c.state === 'done'
            ? 'already ours'
            : c.state,
      );
  else for (const c of o.children) add(c.outcome);
  const parts = [...tally.entries()].map(([k, n]) => `${n} ${k}`);
  return `${plan.children.length} child(ren)${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

function formatTrack(o: TrackOutcome, p: TrackPlan, dryRun: boolean): string[] {
  const spec = p.spec as { repository: string; reference: string; subPath?: string };
  const lines = [`${p.label} → ${targetLabel(p.target)}${p.existingUid ? ' (exists)' : ''}`];
  lines.push(`  ${spec.repository} ${spec.reference}${spec.subPath ? ` ${spec.subPath}` : ''}`);
  if (p.why) lines.push(`  why a ClusterGitTrack: ${p.why}`);
  if (p.promotion?.approved) {
    const secret = p.promotion.secret
      ? `, credentials of Secret ${p.promotion.secret.namespace}/${p.promotion.secret.name}`
      : '';
    lines.push(
      `  promoted (--promote ${p.promotion.ref}): the platform trusts ${p.promotion.repository}${secret}, as the reconciler`,
    );
  }
  if (p.credentials) {
    const { from, to } = p.credentials;
    lines.push(
      `  credentials: Secret ${from.namespace}/${from.name} key ${from.key} (<username>:<password>) → Secret ${to.namespace}/${to.name} (username, password)`,
    );
  }
  for (const b of p.blocked) lines.push(`  BLOCKED: ${b}`);
  if (o.error) lines.push(`  FAILED: ${o.error}`);
  if (p.blocked.length === 0) lines.push(`  ${counts(o, p, dryRun)}`);
  for (const c of o.children)
    if (c.reason || c.outcome === 'failed' || c.outcome === 'interrupted')
      lines.push(`  ${c.subject} (${c.faros}): ${c.outcome}${c.reason ? `: ${c.reason}` : ''}`);
  return lines;
}

/** The migration for a terminal: per track what (would) happen, what stays, then the delete commands. */
export function formatMigration(r: MigrationReport): string {
  if (!r.plan.served)
    return 'Faros is not installed (no faros.pusher.com GitTrack or ClusterGitTrack is served): nothing to migrate';
  const lines: string[] = [];
  if (r.dryRun) lines.push('dry run: nothing is written');
  for (const a of r.plan.activity)
    lines.push(`${r.dryRun ? 'a real run would refuse' : 'refused'}: ${a.what}; ${a.stop}`);
  if (r.tracks.length === 0) lines.push('no Faros track to migrate');
  for (const [i, o] of r.tracks.entries())
    lines.push(...formatTrack(o, r.plan.tracks[i] as TrackPlan, r.dryRun));
  if (r.interrupted) lines.push('interrupted: run the same command again to continue where it stopped');
  if (r.leftInPlace.length > 0) {
    lines.push('Faros objects left in place:');
    for (const l of r.leftInPlace) lines.push(`  ${l}`);
  }
  if (r.deleteCommands.length > 0) {
    lines.push(
      r.dryRun
        ? 'after the migration, these commands would delete the migrated Faros objects and leave every child in place:'
        : 'every child of these Faros objects is now owned by lightkeeper; delete the Faros objects, leaving the children in place, with:',
    );
    lines.push(...r.deleteCommands);
  }
  return lines.join('\n');
}
