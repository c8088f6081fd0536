import type { LimitFunction } from 'p-limit';
import { isLightkeeperError } from '../errors';
import type { Discovery } from '../kube/discovery';
import { awaitsDefinitions, isNamespace, pendingDefinitions } from '../plan/awaitsDefinitions';
import { type PlannedObject, typeKey } from '../plan/plannedObject';
import { type ApplyContext, childPath } from './applyContext';
import type { Change } from './change';
import { dryRunChild } from './dryRunChild';
import { plannedInSync } from './inSync';

/** A commit's changed objects by when they can be validated; `unchanged`, the rest (no request). */
export interface ValidationSplit {
  /** Their namespace and type exist: dry-run before the first write. */
  now: PlannedObject[];
  /** They need a namespace or CRD the commit creates or changes: dry-run once the definitions stage is written. */
  afterDefinitions: PlannedObject[];
  unchanged: PlannedObject[];
}

/**
 * Splits `planned` for validation. An object in sync costs nothing. Whether a namespace the commit
 * has exists is read only for one that is not ours already (one GET each, as the track's identity).
 */
export async function splitValidation(
  ctx: ApplyContext,
  planned: readonly PlannedObject[],
  discovery: Pick<Discovery, 'resourceFor'>,
): Promise<ValidationSplit> {
  const unchanged: PlannedObject[] = [];
  const changed: PlannedObject[] = [];
  for (const p of planned) (plannedInSync(ctx, p) ? unchanged : changed).push(p);
  const probed = changed.filter((p) => isNamespace(p) && !ctx.children.has(p.key));
  const found = new Set<string>();
  await Promise.all(
    probed.map(async (p) => {
      // Not readable as the track: taken as missing, so what is in it waits for its apply.
      const exists = await ctx.childClient.find(childPath(p)).catch((e) => {
        if (!isLightkeeperError(e)) throw e;
      });
      if (exists) found.add(p.manifest.ref.name);
    }),
  );
  const ours = new Set(
    changed.filter((p) => isNamespace(p) && ctx.children.has(p.key)).map((p) => p.manifest.ref.name),
  );
  const pending = pendingDefinitions(changed, (name) => ours.has(name) || found.has(name));
  const now: PlannedObject[] = [];
  const afterDefinitions: PlannedObject[] = [];
  for (const p of changed) {
    const served = discovery.resourceFor(p.manifest.ref.apiVersion, p.manifest.ref.kind) !== undefined;
    (awaitsDefinitions(p, pending, served) ? afterDefinitions : now).push(p);
  }
  return { now, afterDefinitions, unchanged };
}

/** Dry-runs `objects` (lib/apply/dryRunChild.ts) in the apply's concurrency; answers the refusals. */
export async function dryRunAll(
  ctx: ApplyContext,
  objects: readonly PlannedObject[],
  limit: LimitFunction,
): Promise<Change[]> {
  const answers = await Promise.all(objects.map((p) => limit(() => dryRunChild(ctx, p))));
  return answers.filter((c): c is Change => c !== undefined);
}

/** The objects of a type the track's identity could not list: refused, the LIST's error named. */
export const unreadableRefusals = (
  planned: readonly PlannedObject[],
  unreadable: ReadonlyMap<string, Error>,
) =>
  planned.flatMap((p): Change[] => {
    const error = unreadable.get(typeKey(p.resource));
    return error ? [{ subject: p.subject, action: 'failed', message: `${p.subject}: ${error.message}` }] : [];
  });
