import { describe, expect, it } from 'vitest';
import {
  budgetSpent,
  defaultTimeMarginMs,
  gitAtLeastMs,
  gitDeadline,
  timeBudgetMs,
} from '../../../lib/reconcile/timeBudget';

describe('timeBudgetMs', () => {
  const margin = { marginMs: defaultTimeMarginMs };

  it('is the remaining time less the margin', () => {
    expect(timeBudgetMs(900_000)).toBe(900_000 - defaultTimeMarginMs);
  });

  it('is never negative when less than the margin remains', () => {
    expect(timeBudgetMs(defaultTimeMarginMs - 1, margin)).toBe(0);
    expect(timeBudgetMs(0, margin)).toBe(0);
  });

  it('takes the forced budget when it is smaller, never more than remains', () => {
    expect(timeBudgetMs(900_000, { ...margin, forcedMs: 5_000 })).toBe(5_000);
    expect(timeBudgetMs(100_000, { ...margin, forcedMs: 60_000 })).toBe(100_000 - defaultTimeMarginMs);
  });

  it('keeps back the margin it is given', () => {
    expect(timeBudgetMs(60_000, { marginMs: 10_000 })).toBe(50_000);
  });
});

describe('budgetSpent', () => {
  it('stops a run once its deadline passed', () => {
    expect(budgetSpent(1_000, 3, 999)).toBe(false);
    expect(budgetSpent(1_000, 3, 1_000)).toBe(true);
  });

  it('lets a run write at least one object first, so every continuation makes progress', () => {
    expect(budgetSpent(1_000, 0, 5_000)).toBe(false);
    expect(budgetSpent(1_000, 1, 5_000)).toBe(true);
  });
});

describe('gitDeadline', () => {
  it("is the run's deadline, or none without one", () => {
    expect(gitDeadline(1_000_000, 900_000)).toBe(1_000_000);
    expect(gitDeadline(undefined, 900_000)).toBeUndefined();
  });

  it('leaves a run with little budget left time to fetch (it always makes progress)', () => {
    expect(gitDeadline(900_500, 900_000)).toBe(900_000 + gitAtLeastMs);
    expect(gitAtLeastMs).toBeLessThan(defaultTimeMarginMs);
  });
});
