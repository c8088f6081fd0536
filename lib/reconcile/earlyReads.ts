// Reads a whole run starts early, beside the ones it waits for: the children's LISTs beside the
// tracking objects', health's beside the apply. Each is taken once; a later read lists afresh.
import type { Change } from '../apply/change';
import { listChildren } from '../apply/liveChildren';
import { readHealthTargets, startTypeReads, type TypeRead } from '../health/readHealthTargets';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import { trackOwner } from '../ownership/trackOwner';
import { type PlannedObject, typeKey } from '../plan/plannedObject';
import type { ApplyStages, PhaseContext } from './applyPhase';
import type { HealthExtras } from './healthPhase';
import type { PlanOutcome } from './outcomes';

/**
 * Up to this many planned objects, health's LISTs run beside the apply: above it, memory comes
 * first (issue 23): they would be held beside the apply's children and tracking objects.
 */
const earlyHealthMaxObjects = 5_000;

export type EarlyHealth = ReadonlyMap<string, Promise<TypeRead>>;

/** Health's LISTs of the plan's types, started as the apply starts (not with hooks due, nor past the bound). */
export function startEarlyHealth(
  ctx: PhaseContext,
  plan: PlanOutcome,
  hooksDue: boolean,
): EarlyHealth | undefined {
  if (hooksDue || plan.planned.length > earlyHealthMaxObjects) return undefined;
  return startTypeReads(childClientOf(ctx), trackOwner(ctx.track), plan.planned);
}

const childClientOf = ({ deps, track }: PhaseContext) =>
  clientAs(deps.client, trackIdentity(track, deps.config));

/**
 * Health's first read, taking the early LISTs of the types whose every planned object the run left
 * as it was (`unchanged`, `skipped`): what they found is what is there after the apply. Any later
 * read (a wait for spec.healthTimeout) lists afresh.
 */
export function readUnwrittenEarly(
  early: EarlyHealth,
  planned: readonly PlannedObject[],
  changes: readonly Change[],
): NonNullable<HealthExtras['readTargets']> {
  const actions = new Map(changes.map((c) => [c.subject, c.action]));
  const written = new Set<string>();
  for (const p of planned) {
    const action = actions.get(p.subject);
    if (action !== 'unchanged' && action !== 'skipped') written.add(typeKey(p.resource));
  }
  let first: Map<string, Promise<TypeRead>> | undefined = new Map(
    [...early].filter(([type]) => !written.has(type)),
  );
  return (client, owner, targets) => {
    const taken = first;
    first = undefined;
    return readHealthTargets(client, owner, targets, taken);
  };
}

/**
 * The LISTs of the plan's children, started now as the track's identity: the apply's first read
 * of its children (a later one, after new CRDs, reads afresh).
 */
export function prefetchChildren(ctx: PhaseContext, plan: PlanOutcome): ApplyStages['readChildren'] {
  let first: ReturnType<typeof listChildren> | undefined = listChildren(
    childClientOf(ctx),
    trackOwner(ctx.track),
    plan.planned,
  );
  // Handled here so that a run that ends before applying leaves no unhandled rejection.
  first.catch(() => undefined);
  return (client, owner, planned) => {
    const listed = first;
    first = undefined;
    return listed ?? listChildren(client, owner, planned);
  };
}
