import type { DiffPlan } from './diffPlan';

/** The plan as text: the unified diffs first, then one section per kind of outcome. */
export function formatDiffPlan(plan: DiffPlan): string {
  const out: string[] = plan.changed.map((c) => c.diff.replace(/\n$/, ''));
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push(`${title}:`, ...lines.map((l) => `  ${l}`));
  };
  section('would create', plan.created);
  section(
    'would prune',
    plan.pruned.map((p) => (p.refused ? `${p.subject} (refused: ${p.refused})` : p.subject)),
  );
  section(
    'ignored',
    plan.ignored.map((i) => `${i.object ?? i.path}: ${i.reason}`),
  );
  section(
    'conflicts',
    plan.conflicts.map((c) => c.message),
  );
  section('errors', plan.errors);
  out.push(
    `${plan.track} at ${plan.source}: ${plan.changed.length} changed, ${plan.created.length} created, ` +
      `${plan.pruned.filter((p) => !p.refused).length} pruned, ${plan.unchanged} unchanged`,
  );
  return out.join('\n');
}
