import { type SkippedHook, skippedHooks } from './chartFiles';
import type { HookPolicy } from './helmPolicies';
import type { ChartHook } from './runHelmRender';

/** The events lightkeeper runs hooks for: an install is the track's first apply, an upgrade any later one. */
export type HookEvent = 'pre-install' | 'pre-upgrade' | 'post-install' | 'post-upgrade';

export interface HookStage {
  event: HookEvent;
  /** In Helm's order: `helm.sh/hook-weight`, then name, then the kind order the render lists them in. */
  hooks: ChartHook[];
}

/** What a render's hooks come to for one apply: the stage before the chart, the one after, the rest. */
export interface HookStages {
  pre: HookStage;
  post: HookStage;
  /** Hooks of no stage of this apply: every hook under Skip; `test`, delete and rollback hooks, the other event's. */
  notRun: SkippedHook[];
}

export type HookDeletePolicy = 'before-hook-creation' | 'hook-succeeded' | 'hook-failed';

/**
 * The stages of a chart's hooks (pure). Under Run, pre-install (an install) or pre-upgrade hooks
 * run before the chart's objects and post-install / post-upgrade after them; `test` hooks never run.
 * Ordered as Helm's execHook does: a stable sort of the render's list (sorted by kind) by weight,
 * then name.
 */
export function planHooks(hooks: readonly ChartHook[], policy: HookPolicy, isUpgrade: boolean): HookStages {
  const preEvent: HookEvent = isUpgrade ? 'pre-upgrade' : 'pre-install';
  const postEvent: HookEvent = isUpgrade ? 'post-upgrade' : 'post-install';
  const of = (event: HookEvent): HookStage => ({
    event,
    hooks: policy === 'Run' ? byWeight(hooks.filter((h) => h.events.includes(event))) : [],
  });
  const pre = of(preEvent);
  const post = of(postEvent);
  const running = new Set([...pre.hooks, ...post.hooks]);
  return { pre, post, notRun: skippedHooks(hooks.filter((h) => !running.has(h))) };
}

const byWeight = (hooks: ChartHook[]): ChartHook[] =>
  hooks
    .map((h, i) => ({ h, i }))
    .sort((a, b) => a.h.weight - b.h.weight || compare(a.h.name, b.h.name) || a.i - b.i)
    .map(({ h }) => h);

// Go compares strings by bytes: no locale.
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A hook's delete policies; none given means before-hook-creation, as Helm defaults it. */
export const hookDeletePolicies = (hook: Pick<ChartHook, 'deletePolicies'>): HookDeletePolicy[] =>
  hook.deletePolicies.length > 0 ? (hook.deletePolicies as HookDeletePolicy[]) : ['before-hook-creation'];
