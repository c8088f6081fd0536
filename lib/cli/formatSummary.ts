import { waitLine } from '../depends/waitLine';
import { describePin } from '../pin/describePin';
import { unpinHint } from '../pin/unpinHint';
import { appliedOf } from '../reconcile/deployedOf';
import type { ReconcileSummary } from '../reconcile/types';
import type { TrackRef } from '../track/trackRef';

/** A readable summary: what was applied, left alone, ignored (with reasons), pruned and failed. */
export function formatSummary(s: ReconcileSummary): string {
  const track = s.track.namespace
    ? `${s.track.kind} ${s.track.namespace}/${s.track.name}`
    : `${s.track.kind} ${s.track.name}`;
  const lines = [
    `${track}: ${s.result} ${where(s)} in ${(s.durationMs / 1000).toFixed(1)}s`,
    `  ${s.counts.discovered} discovered, ${s.counts.applied} applied, ${s.counts.inSync} in sync, ${s.counts.ignored} ignored, ${s.counts.pruned} pruned, ${s.counts.unavailable ? `${s.counts.unavailable} unavailable, ` : ''}${s.counts.failed} failed, ${s.counts.conflicts} conflicts, ${s.counts.drifted} drifted`,
    `  writes: ${s.writes.objects} to objects, ${s.writes.health ? `${s.writes.health} to Healthy conditions, ` : ''}${s.writes.status} to status and events`,
  ];
  // Said second, not only in the list below: a Succeeded run that skipped objects is not all green.
  if (s.ignored.length > 0)
    lines.splice(
      1,
      0,
      `  skipped for safety: ${s.ignored.length} objects this track may not apply (listed under "ignored")`,
    );
  if (s.health) lines.push(`  ${describeHealth(s.health)}`);
  if (s.pin) lines.push(`  ${describePin(s.pin)} (\`${unpinHint(s.track)}\` to follow the reference again)`);
  const d = s.deployed;
  if (d?.extent === 'broken')
    lines.push(`  nothing of ${s.commit} applied, nothing pruned: it does not parse`);
  else if (d && d.extent !== 'full') lines.push(`  ${appliedOf(d, s.commit ?? '')}`);
  const section = (title: string, items: string[]) => {
    if (items.length > 0) lines.push(`${title}:`, ...items.map((i) => `  ${i}`));
  };
  const by = (...actions: string[]) => s.changes.filter((c) => actions.includes(c.action));
  section(
    'applied',
    by('created', 'configured').map(
      (c) => `${c.action.padEnd(10)} ${c.subject}${c.drifted ? ` (drifted: ${c.message})` : ''}`,
    ),
  );
  section(
    'pruned',
    by('deleted', 'orphaned').map((c) => `${c.action.padEnd(10)} ${c.subject}`),
  );
  section(
    'not pruned: type not served now (tracking object kept)',
    by('unavailable').map((c) => c.subject),
  );
  section(
    'left alone',
    by('skipped').map((c) => `${c.subject}: ${c.message}`),
  );
  section(
    'conflicts (owned by another track or controller; not applied)',
    by('conflict').map((c) => c.message ?? c.subject),
  );
  section(
    'ignored',
    s.ignored.map((i) => `${i.object ?? i.path} (${i.path}): ${i.reason}`),
  );
  section('not healthy', s.health?.unhealthy ?? []);
  section('errors', s.errors);
  section('waiting for (spec.dependsOn; nothing applied or pruned)', (s.waitingFor ?? []).map(waitLine));
  section(
    'dependents to reconcile next (the reconcile function invokes them)',
    (s.dependents ?? []).map((d) => `lightkeeper reconcile ${trackArg(d.track)}`),
  );
  return lines.join('\n');
}

/** `at <commit>`, naming the reference only when it is not that commit; `fetching <reference>` when no commit was resolved. */
function where(s: ReconcileSummary): string {
  const reference = s.reference ?? '(no reference)';
  if (s.heldBack) return `(${reference}, ${s.heldBack})`;
  if (s.commit === undefined) return s.result === 'Failed' ? `fetching ${reference}` : `(${reference})`;
  return s.reference && s.reference.toLowerCase() !== s.commit
    ? `at ${s.commit} (${s.reference})`
    : `at ${s.commit}`;
}

const waitEnds = {
  healthy: 'all healthy',
  failed: 'one failed',
  timeout: 'out of time',
  newerRun: 'a newer reconcile is queued',
} as const;

/** `health: 2 of 3 healthy, 1 progressing, 0 failed (waited 3.1s: out of time)`. */
function describeHealth(h: NonNullable<ReconcileSummary['health']>): string {
  const waited = h.waited ? ` (waited ${(h.waited.ms / 1000).toFixed(1)}s: ${waitEnds[h.waited.end]})` : '';
  return `health: ${h.healthy} of ${h.of} healthy, ${h.progressing} progressing, ${h.failed} failed${waited}`;
}
const trackArg = (t: TrackRef) =>
  t.namespace ? `${t.kind.toLowerCase()}/${t.name} -n ${t.namespace}` : `${t.kind.toLowerCase()}/${t.name}`;
