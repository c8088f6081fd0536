/**
 * Time kept back from the invocation's remaining time: objects already in flight finish (each
 * request has its own deadline), then the status is written and the continuation is queued.
 */
export const defaultTimeMarginMs = 90_000;

/** The reconcile function's settings of the budget (lib/config/reconcileConfig.ts reads them). */
export interface TimeBudgetSettings {
  /** `LIGHTKEEPER_TIME_MARGIN_MS`: kept back from the remaining time. */
  marginMs: number;
  /** `LIGHTKEEPER_TIME_BUDGET_MS`: at most this long, when set (to force short runs). */
  forcedMs?: number | undefined;
}

/**
 * How long a run may apply: the invocation's remaining time less the margin, or the forced budget
 * when that is smaller. Never negative.
 */
export function timeBudgetMs(
  remainingMs: number,
  settings: TimeBudgetSettings = { marginMs: defaultTimeMarginMs },
): number {
  const available = Math.max(0, remainingMs - settings.marginMs);
  return settings.forcedMs === undefined ? available : Math.min(settings.forcedMs, available);
}

/**
 * Whether a run whose budget ends at `deadline` must stop taking new objects. It first brings at
 * least one object into sync (`written`: objects it created or configured), so every continuation
 * makes progress however small its budget. A run that only meets failures or conflicts goes to
 * the end and reports them instead of handing them on.
 */
export const budgetSpent = (deadline: number, written: number, now: number = Date.now()) =>
  written > 0 && now >= deadline;

/**
 * How long a run's git requests (the fetch, the pin's and the dependencies' head listings) may
 * take at least, past its budget: a run always makes progress (see budgetSpent), so a run that
 * starts with little budget left still fetches; a third of the default margin.
 */
export const gitAtLeastMs = 30_000;

/** The deadline of a run's git requests from `now`: its own, but never sooner than gitAtLeastMs. */
export const gitDeadline = (deadline: number | undefined, now: number = Date.now()) =>
  deadline === undefined ? undefined : Math.max(deadline, now + gitAtLeastMs);
