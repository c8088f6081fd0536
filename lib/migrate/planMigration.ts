import pLimit, { type LimitFunction } from 'p-limit';
import { ConfigError } from '../errors';
import { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import { lightkeeperApiVersion, lightkeeperResources } from '../kube/lightkeeperResources';
import { resourcePath } from '../kube/paths';
import { defaultLeaseNamespace } from '../lease/leaseTarget';
import { migratedFromUidAnnotation } from '../manifests/metadataKeys';
import { fallbackServiceAccount } from '../manifests/serviceAccountName';
import type { TrackOwner } from '../ownership/ownershipTable';
import { defaultConcurrency } from '../settings/defaults';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { type FarosActivity, farosActivity } from './farosActivity';
import { type FarosTracker, farosLabel } from './farosResources';
import { mapFarosTrack, parsePromotionRef, type TrackMapping } from './mapFarosTrack';
import { credentialsProblem } from './migrationCredentials';
import { type ChildPlan, planChild } from './planChild';
import { readFarosObjects } from './readFarosObjects';
import { serviceAccountMay } from './serviceAccountMay';

export interface TrackPlan extends TrackMapping {
  /** The lightkeeper track's UID when it exists already (a rerun). */
  existingUid?: string | undefined;
  children: ChildPlan[];
}

export interface MigrationPlan {
  /** False when the cluster does not serve Faros' CRDs. */
  served: boolean;
  tracks: TrackPlan[];
  /** Faros tracking objects no Faros track controls: not migrated, named here. */
  unowned: string[];
  /** Signs of a running Faros controller: the migration refuses to write while there are any. */
  activity: FarosActivity[];
}

export interface PlanOptions {
  config: DeploymentConfig;
  /** Only the Faros GitTracks of this namespace (ClusterGitTracks are left for a run without it). */
  namespace?: string | undefined;
  now?: Date;
  /** Requests in flight at once (default `defaultConcurrency`, 16). */
  concurrency?: number;
  /**
   * Faros GitTracks (`GitTrack/NS/NAME`) the operator names to become ClusterGitTracks; any other
   * GitTrack that would need one is reported and left alone.
   */
  promote?: readonly string[] | undefined;
  /** The reconciler's own namespace, where a promoted track's credentials go (LIGHTKEEPER_LEASE_NAMESPACE). */
  reconcilerNamespace?: string | undefined;
}

interface LiveTrack {
  metadata: { uid: string; annotations?: Record<string, string> };
}

/** The lightkeeper track as the ownership table needs it; a placeholder UID until it exists. */
export const trackOwnerOf = (m: TrackMapping, uid: string): TrackOwner => ({
  kind: m.target.kind,
  apiVersion: lightkeeperApiVersion,
  name: m.target.name,
  uid,
  namespace: m.target.namespace,
  defaultNamespace: m.spec.defaultNamespace as string | undefined,
  deletionPolicy: 'Delete',
});

/** Targets two Faros tracks would both become (a GitTrack ns/x spanning namespaces vs a ClusterGitTrack ns.x). */
function blockCollisions(mappings: TrackMapping[]) {
  const seen = new Map<string, TrackMapping[]>();
  for (const m of mappings) {
    const key = `${m.target.kind}/${m.target.namespace ?? ''}/${m.target.name}`;
    seen.set(key, [...(seen.get(key) ?? []), m]);
  }
  for (const group of seen.values())
    if (group.length > 1)
      for (const m of group)
        m.blocked.push(
          `${group.map((g) => g.label).join(' and ')} would all become ${m.target.kind} ${m.target.name}`,
        );
}

/** The ServiceAccount a migrated GitTrack acts as may read, patch and delete each child, and read its credentials. */
async function rightsProblems(client: KubeClient, plan: TrackPlan, limit: LimitFunction) {
  if (plan.target.kind !== 'GitTrack') return [];
  const account = {
    namespace: plan.target.namespace as string,
    name: (plan.spec.serviceAccountName as string) || fallbackServiceAccount,
  };
  const asks: Array<{ verb: string; group: string; resource: string; name?: string; what: string }> = [];
  const lists = new Set<string>();
  for (const c of plan.children) {
    if (!c.target || c.state === 'problem' || c.state === 'conflict') continue;
    const { group, plural, name, kind } = c.target;
    const what = `${kind} ${name}`;
    if (!lists.has(`${group}/${plural}`)) {
      lists.add(`${group}/${plural}`);
      asks.push({ verb: 'list', group, resource: plural, what: `${plural}${group ? `.${group}` : ''}` });
    }
    for (const verb of ['patch', 'delete']) asks.push({ verb, group, resource: plural, name, what });
  }
  if (plan.credentials)
    asks.push({
      verb: 'get',
      group: '',
      resource: 'secrets',
      name: plan.credentials.to.name,
      what: `Secret ${plan.credentials.to.name}`,
    });
  // Reviews are POSTs that change nothing: counted apart, so a dry run counts zero writes.
  const reviewer = client.countedApart();
  const answers = await Promise.all(
    asks.map((a) =>
      limit(() =>
        serviceAccountMay(reviewer, account, { ...a, namespace: account.namespace }).then((ok) => ({
          ok,
          a,
        })),
      ),
    ),
  );
  const denied = answers.filter((x) => !x.ok).map((x) => `${x.a.verb} ${x.a.what}`);
  if (denied.length === 0) return [];
  const shown = denied.slice(0, 5).join(', ') + (denied.length > 5 ? ` and ${denied.length - 5} more` : '');
  return [
    `ServiceAccount ${account.namespace}/${account.name}, which the GitTrack acts as, may not ${shown}: a GitTrack manages only what its identity may; grant it (e.g. a RoleBinding to the admin ClusterRole in ${account.namespace}) and run again`,
  ];
}

/** The `--promote` refs, each `GitTrack/NS/NAME`; anything else is a usage error. */
function promotionRefs(refs: readonly string[] | undefined): Set<string> {
  const parsed = new Set<string>();
  for (const text of refs ?? []) {
    const ref = parsePromotionRef(text);
    if (!ref)
      throw new ConfigError(`--promote ${text}: expected GitTrack/NAMESPACE/NAME (a Faros GitTrack)`, {
        subject: text,
      });
    parsed.add(ref);
  }
  return parsed;
}

/**
 * What migrating would do, as data, from the live cluster. Reads only (metadata of children, the
 * Faros credential Secrets to validate them), with the caller's identity.
 */
export async function planMigration(client: KubeClient, options: PlanOptions): Promise<MigrationPlan> {
  const promote = promotionRefs(options.promote);
  const limit = pLimit(options.concurrency ?? defaultConcurrency);
  const discovery = await new Discovery(client).refresh();
  const faros = await readFarosObjects(client, discovery);
  const activity = faros.served ? await farosActivity(client, faros, options.now) : [];
  const trackUids = new Set(faros.tracks.map((t) => t.metadata.uid));
  const byTrack = new Map<string, FarosTracker[]>();
  const unowned: string[] = [];
  for (const t of faros.trackers) {
    const controller = t.metadata.ownerReferences?.find((o) => o.controller && trackUids.has(o.uid));
    if (!controller) {
      if (!options.namespace || t.metadata.namespace === options.namespace) unowned.push(farosLabel(t));
    } else byTrack.set(controller.uid, [...(byTrack.get(controller.uid) ?? []), t]);
  }
  const tracks = faros.tracks.filter(
    (t) => !options.namespace || (t.kind === 'GitTrack' && t.metadata.namespace === options.namespace),
  );
  const reconcilerNamespace = options.reconcilerNamespace ?? defaultLeaseNamespace;
  const mappings = tracks.map((t) =>
    mapFarosTrack(t, byTrack.get(t.metadata.uid) ?? [], options.config, { promote, reconcilerNamespace }),
  );
  const unmatched = [...promote].filter((ref) => !mappings.some((m) => m.promotion?.ref === ref));
  if (unmatched.length > 0)
    throw new ConfigError(
      `--promote ${unmatched.join(', ')}: no Faros GitTrack of that name${options.namespace ? ` in namespace ${options.namespace}` : ''} would become a ClusterGitTrack`,
      { subject: unmatched.join(', ') },
    );
  blockCollisions(mappings);

  const plans = await Promise.all(
    mappings.map(async (m): Promise<TrackPlan> => {
      const live = await client.find<LiveTrack>(
        resourcePath({
          ...lightkeeperResources[m.target.kind],
          namespace: m.target.namespace,
          name: m.target.name,
        }),
      );
      const blocked = [...m.blocked];
      if (live && live.metadata.annotations?.[migratedFromUidAnnotation] !== m.source.uid)
        blocked.push(
          `${m.target.kind} ${m.target.name} exists already and was not created by migrating ${m.label}`,
        );
      // An unapproved promotion is left alone: not even its tenant's Secret is read.
      if (m.credentials && (!m.promotion || m.promotion.approved)) {
        const problem = await credentialsProblem(client, m.credentials);
        if (problem) blocked.push(problem);
        if (m.promotion && !(await client.find(`/api/v1/namespaces/${m.credentials.to.namespace}`)))
          blocked.push(
            `namespace ${m.credentials.to.namespace}, the reconciler's own (LIGHTKEEPER_LEASE_NAMESPACE), where the promoted track's credentials are copied, does not exist`,
          );
      }
      const existingUid = live && blocked.length === 0 ? live.metadata.uid : undefined;
      const owner = trackOwnerOf(m, existingUid ?? 'not-created-yet');
      const children = await Promise.all(
        (byTrack.get(m.source.uid) ?? []).map((t) =>
          limit(() => planChild(client, discovery, options.config, owner, existingUid !== undefined, t)),
        ),
      );
      const plan: TrackPlan = { ...m, blocked, existingUid, children };
      if (blocked.length === 0) plan.blocked.push(...(await rightsProblems(client, plan, limit)));
      return plan;
    }),
  );
  return { served: faros.served, tracks: plans, unowned: unowned.sort(), activity };
}
