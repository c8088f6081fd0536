// Reads a whole run starts early, beside the ones it waits for: the children's LISTs beside the
// tracking objects', health's beside the apply. Each is taken once; a later read lists afresh.
import type { Change } from '../apply/change';
import { type LiveChildren, listChildren } from '../apply/liveChildren';
import {
  healthReadsMetadataOnly,
  readHealthTargets,
  startTypeReads,
  type TypeRead,
  withoutManagedFields,
} from '../health/readHealthTargets';
import { clientAs, trackIdentity } from '../identity/trackIdentity';
import type { Unstructured } from '../kstatus/fields';
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

/**
 * Health's LISTs of the plan's types, started as the apply starts (not with hooks due, nor past the
 * bound). A type health reads the metadata of is taken from the children's LIST (`children`, the
 * same request) instead of being listed twice.
 */
export function startEarlyHealth(
  ctx: PhaseContext,
  plan: PlanOutcome,
  hooksDue: boolean,
  children?: Promise<LiveChildren>,
): EarlyHealth | undefined {
  if (hooksDue || plan.planned.length > earlyHealthMaxObjects) return undefined;
  const client = childClientOf(ctx);
  const owner = trackOwner(ctx.track);
  if (!children) return startTypeReads(client, owner, plan.planned);
  const fromChildren = new Map<string, PlannedObject[]>();
  for (const p of plan.planned.filter(healthReadsMetadataOnly)) {
    const type = typeKey(p.resource);
    const ofType = fromChildren.get(type);
    if (ofType) ofType.push(p);
    else fromChildren.set(type, [p]);
  }
  const early = startTypeReads(
    client,
    owner,
    plan.planned.filter((p) => !fromChildren.has(typeKey(p.resource))),
  );
  for (const [type, planned] of fromChildren) early.set(type, healthReadOfChildren(children, type, planned));
  return early;
}

/**
 * Health's read of a metadata-only type (`planned`: its objects), as its LIST would have found it:
 * from the children's.
 */
async function healthReadOfChildren(
  children: Promise<LiveChildren>,
  type: string,
  planned: readonly PlannedObject[],
): Promise<TypeRead> {
  try {
    const live = await children;
    const error = live.unreadable.get(type);
    if (error) return { error: error.message };
    const objects: Array<[string, Unstructured]> = [];
    for (const p of planned) {
      const child = live.children.get(p.key);
      if (child)
        objects.push([
          p.key,
          {
            ...withoutManagedFields(child as unknown as Unstructured),
            apiVersion: p.resource.apiVersion,
            kind: p.manifest.ref.kind,
          },
        ]);
    }
    return { objects };
  } catch (e) {
    return { error: (e as Error).message };
  }
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
export function prefetchChildren(
  ctx: PhaseContext,
  plan: PlanOutcome,
): { read: NonNullable<ApplyStages['readChildren']>; listed: Promise<LiveChildren> } {
  const listed = listChildren(childClientOf(ctx), trackOwner(ctx.track), plan.planned);
  // Handled here so that a run that ends before applying leaves no unhandled rejection.
  listed.catch(() => undefined);
  let first: Promise<LiveChildren> | undefined = listed;
  return {
    read: (client, owner, planned) => {
      const taken = first;
      first = undefined;
      return taken ?? listChildren(client, owner, planned);
    },
    listed,
  };
}
