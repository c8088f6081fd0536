import type { PlannedObject } from '../plan/plannedObject';
import { type LiveTracker, trackerKey } from './liveTracker';

type Conditions = NonNullable<NonNullable<LiveTracker['status']>['conditions']>;

/** What the tracking objects' conditions are after an apply, as far as the apply knows them. */
export type TrackerConditions = ReadonlyMap<string, Pick<LiveTracker, 'status'>>;

/**
 * The conditions a run's apply wrote on tracking objects, by `trackerKey`, so the health step that
 * follows knows each tracking object's conditions without listing them again: those read before
 * the apply, overlaid with these (a run holds its track's lease; nobody else writes them). A write
 * whose outcome is unknown makes the whole record unsure, and the health step lists them again.
 */
export class WrittenConditions {
  private readonly byKey = new Map<string, Conditions>();
  private unsure = false;

  wrote(p: PlannedObject, conditions: Conditions): void {
    this.byKey.set(trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName), conditions);
  }

  /** A tracking object this apply created and removed again: it has no conditions. */
  forget(p: PlannedObject): void {
    this.byKey.delete(trackerKey(p.decision.tracker, p.decision.namespace, p.decision.trackerName));
  }

  failed(): void {
    this.unsure = true;
  }

  /** `before` overlaid with what was written; undefined when a write's outcome is unknown. */
  after(before: ReadonlyMap<string, LiveTracker>): TrackerConditions | undefined {
    if (this.unsure) return undefined;
    const view = new Map<string, Pick<LiveTracker, 'status'>>(before);
    for (const [key, conditions] of this.byKey) {
      view.set(key, { status: { ...before.get(key)?.status, conditions } });
    }
    return view;
  }
}
