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

/** Whether health's first read comes from LISTs started early: not with hooks due, nor past the bound. */
const readsHealthEarly = (plan: PlanOutcome, hooksDue: boolean) =>
  !hooksDue && plan.planned.length <= earlyHealthMaxObjects;

/** The children's LISTs, and the types among them listed whole because health reads their content. */
export interface PrefetchedChildren {
  read: NonNullable<ApplyStages['readChildren']>;
  listed: Promise<LiveChildren>;
  wholeTypes: ReadonlySet<string>;
}

/**
 * Health's LISTs of the plan's types, started as the apply starts (not with hooks due, nor past the
 * bound). A type the children's LISTs read (`children`) is taken from them, the same request as
 * health's own LIST would be (a metadata-only type, or one listed whole), instead of being listed twice.
 */
export function startEarlyHealth(
  ctx: PhaseContext,
  plan: PlanOutcome,
  hooksDue: boolean,
  children?: Pick<PrefetchedChildren, 'listed' | 'wholeTypes'>,
): EarlyHealth | undefined {
  if (!readsHealthEarly(plan, hooksDue)) return undefined;
  const client = childClientOf(ctx);
  const owner = trackOwner(ctx.track);
  if (!children) return startTypeReads(client, owner, plan.planned);
  const fromChildren = new Map<string, PlannedObject[]>();
  for (const p of plan.planned) {
    const type = typeKey(p.resource);
    if (!healthReadsMetadataOnly(p) && !children.wholeTypes.has(type)) continue;
    const ofType = fromChildren.get(type);
    if (ofType) ofType.push(p);
    else fromChildren.set(type, [p]);
  }
  const early = startTypeReads(
    client,
    owner,
    plan.planned.filter((p) => !fromChildren.has(typeKey(p.resource))),
  );
  for (const [type, planned] of fromChildren)
    early.set(type, healthReadOfChildren(children.listed, type, planned));
  return early;
}

/**
 * Health's read of a type (`planned`: its objects) as its LIST would have found it: from the
 * children's, whole when it was listed whole, its metadata otherwise.
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
      const whole = live.whole.get(p.key);
      if (whole) {
        objects.push([p.key, whole]);
        continue;
      }
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
 * of its children (a later one, after new CRDs, reads afresh). When health will take its first
 * read from them (`hooksDue` false, within the bound), a type health reads the content of is
 * listed whole, so that health needs no LIST of its own for it.
 */
export function prefetchChildren(
  ctx: PhaseContext,
  plan: PlanOutcome,
  hooksDue: boolean,
): PrefetchedChildren {
  const wholeTypes = new Set<string>();
  if (readsHealthEarly(plan, hooksDue))
    for (const p of plan.planned) if (!healthReadsMetadataOnly(p)) wholeTypes.add(typeKey(p.resource));
  const listed = listChildren(childClientOf(ctx), trackOwner(ctx.track), plan.planned, undefined, wholeTypes);
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
    wholeTypes,
  };
}
