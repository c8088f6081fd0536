import { defaultLeaseNamespace } from '../lease/leaseTarget';
import { fallbackServiceAccount } from '../manifests/serviceAccountName';
import { type DeploymentConfig, trackRefusal } from '../settings/deploymentModes';
import type { TrackKind } from '../track/trackRef';
import { type FarosTrack, type FarosTracker, farosLabel } from './farosResources';

export interface TrackTarget {
  kind: TrackKind;
  name: string;
  namespace?: string | undefined;
}

/**
 * Faros' HTTPBasicAuth deploy key is one Secret key holding `<username>:<password>`; lightkeeper's
 * `basic` auth reads the keys `username` and `password`. The migration writes that second Secret.
 */
export interface CredentialsMapping {
  from: { namespace: string; name: string; key: string };
  to: { namespace: string; name: string };
}

export interface TrackMapping {
  source: { kind: FarosTrack['kind']; namespace?: string | undefined; name: string; uid: string };
  /** `GitTrack.faros.pusher.com/ns/name`. */
  label: string;
  target: TrackTarget;
  spec: Record<string, unknown>;
  /** Why the target is a ClusterGitTrack although the source is a GitTrack. */
  why?: string | undefined;
  credentials?: CredentialsMapping | undefined;
  /** Set when a tenant's Faros GitTrack would become a ClusterGitTrack: what the platform would trust. */
  promotion?: Promotion | undefined;
  /** Why this track cannot be migrated as it is; nothing of it is touched then. */
  blocked: string[];
}

/**
 * A ClusterGitTrack acts as the reconciler itself, with no rights check: promoting a tenant's GitTrack
 * makes the platform follow the tenant's repository (and the Secret the tenant chose). Only done when
 * the operator names the track (`--promote GitTrack/NS/NAME`); its credentials are then copied to the
 * reconciler's own namespace, so the ClusterGitTrack no longer reads a Secret its tenant controls.
 */
export interface Promotion {
  /** `GitTrack/NS/NAME`, as `--promote` names it. */
  ref: string;
  repository: string;
  /** The tenant's Secret the ClusterGitTrack's credentials would come from. */
  secret?: { namespace: string; name: string } | undefined;
  /** Named by the operator: migrated; otherwise reported and left alone. */
  approved: boolean;
}

export interface MapOptions {
  /** Faros GitTracks the operator named to become ClusterGitTracks (`GitTrack/NS/NAME`). */
  promote?: ReadonlySet<string> | undefined;
  /** Where a promoted track's credentials are copied: the reconciler's own namespace (default lightkeeper-system). */
  reconcilerNamespace?: string | undefined;
}

/** `GitTrack/NS/NAME` (the kind in any case, with or without `.faros.pusher.com`), or undefined. */
export function parsePromotionRef(text: string): string | undefined {
  const m = /^gittrack(?:\.faros\.pusher\.com)?\/([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9.-]*)$/i.exec(
    text.trim(),
  );
  return m ? `GitTrack/${m[1]}/${m[2]}` : undefined;
}

const httpUrl = /^https?:\/\/\S+$/;

/** Faros' subPath, as lightkeeper reads one: relative, without `./` or a leading `/`. */
function normalizeSubPath(subPath: string | undefined): { value?: string; problem?: string } {
  const trimmed = (subPath ?? '').replace(/^(\.?\/)+/, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return {};
  if (trimmed.split('/').some((s) => s === '..' || s === '' || s === '.'))
    return { problem: `spec.subPath ${JSON.stringify(subPath)} is not a normalized relative path` };
  return { value: trimmed };
}

/** Namespaces a Faros GitTrack's tracking objects sit in other than its own, and whether any is cluster-scoped. */
function spread(track: FarosTrack, trackers: readonly FarosTracker[]) {
  const others = new Set<string>();
  let clusterScoped = false;
  for (const t of trackers) {
    if (t.kind === 'ClusterGitTrackObject') clusterScoped = true;
    else if (t.metadata.namespace !== track.metadata.namespace) others.add(t.metadata.namespace as string);
  }
  return { others: [...others].sort(), clusterScoped };
}

/**
 * The lightkeeper track that takes a Faros track's place: same repository, reference, subPath and
 * credentials. A Faros GitTrack whose tracking objects sit in other namespaces, or are cluster-
 * scoped (the shape the garbage collector deletes or never resolves), becomes a ClusterGitTrack
 * `<namespace>.<name>` with that namespace as `defaultNamespace`: it already acted across
 * namespaces, and only a cluster-scoped track may legally own what it manages. Dropping those
 * objects instead would leave them to nobody.
 */
export function mapFarosTrack(
  track: FarosTrack,
  trackers: readonly FarosTracker[],
  config: DeploymentConfig,
  options: MapOptions = {},
): TrackMapping {
  const { name, namespace, uid } = track.metadata;
  const blocked: string[] = [];
  let target: TrackTarget;
  let why: string | undefined;
  if (track.kind === 'ClusterGitTrack') target = { kind: 'ClusterGitTrack', name };
  else {
    const { others, clusterScoped } = spread(track, trackers);
    if (others.length === 0 && !clusterScoped) target = { kind: 'GitTrack', name, namespace };
    else {
      target = { kind: 'ClusterGitTrack', name: `${namespace}.${name}` };
      const where = [
        ...(others.length ? [`in namespace(s) ${others.join(', ')}`] : []),
        ...(clusterScoped ? ['cluster-scoped'] : []),
      ].join(' and ');
      why = `its tracking objects are ${where}: a GitTrack may own only its own namespace, so a ClusterGitTrack takes them all`;
    }
  }
  const promotionRef = `GitTrack/${namespace}/${name}`;
  const promoting = track.kind === 'GitTrack' && target.kind === 'ClusterGitTrack';
  const approved = promoting && (options.promote?.has(promotionRef) ?? false);
  const refusal = trackRefusal(config, target);
  if (refusal) blocked.push(`the ${target.kind} it needs cannot be reconciled here: ${refusal}`);

  const { repository, reference, deployKey } = track.spec;
  if (!httpUrl.test(repository ?? ''))
    blocked.push(
      `spec.repository ${repository} is not an http(s) URL: lightkeeper fetches over http(s) only; while Faros is stopped, set it to the repository's https URL and run again`,
    );
  const subPath = normalizeSubPath(track.spec.subPath);
  if (subPath.problem) blocked.push(subPath.problem);

  let credentials: CredentialsMapping | undefined;
  if (deployKey) {
    const secretNamespace = deployKey.secretNamespace || namespace;
    if ((deployKey.type ?? 'SSH') !== 'HTTPBasicAuth') {
      blocked.push(
        `spec.deployKey is an SSH key: lightkeeper authenticates over https with a token or username and password; while Faros is stopped, point spec.deployKey at a Secret key holding <username>:<token> with type HTTPBasicAuth (and spec.repository at the https URL), then run again`,
      );
    } else if (!secretNamespace) {
      blocked.push('spec.deployKey.secretNamespace is required for a ClusterGitTrack');
    } else if (target.kind === 'GitTrack' && secretNamespace !== namespace) {
      blocked.push(
        `spec.deployKey names Secret ${secretNamespace}/${deployKey.secretName}, but a GitTrack reads credentials only from its own namespace ${namespace}: copy them there if its tenant may hold them, point spec.deployKey at the copy, then run again`,
      );
    } else {
      credentials = {
        from: { namespace: secretNamespace, name: deployKey.secretName, key: deployKey.key },
        to: promoting
          ? {
              namespace: options.reconcilerNamespace ?? defaultLeaseNamespace,
              name: `${secretNamespace}.${deployKey.secretName}-lightkeeper`,
            }
          : { namespace: secretNamespace, name: `${deployKey.secretName}-lightkeeper` },
      };
    }
  }
  const promotion: Promotion | undefined = promoting
    ? {
        ref: promotionRef,
        repository: repository ?? '',
        secret: deployKey && {
          namespace: deployKey.secretNamespace || (namespace as string),
          name: deployKey.secretName,
        },
        approved,
      }
    : undefined;
  if (promotion && !approved) {
    const trusted = promotion.secret
      ? ` with the credentials of Secret ${promotion.secret.namespace}/${promotion.secret.name}`
      : '';
    blocked.unshift(
      `a tenant's GitTrack is never promoted unless you name it: it would become ClusterGitTrack ${target.name}, acting as the reconciler itself with no rights check, following ${repository}${trusted}; left alone (to promote it: --promote ${promotionRef})`,
    );
  }

  const auth = credentials && {
    type: 'basic',
    secretRef:
      target.kind === 'GitTrack'
        ? { name: credentials.to.name }
        : { name: credentials.to.name, namespace: credentials.to.namespace },
  };
  const spec: Record<string, unknown> = {
    repository,
    reference,
    ...(subPath.value ? { subPath: subPath.value } : {}),
    ...(auth ? { auth } : {}),
    ...(target.kind === 'GitTrack'
      ? { serviceAccountName: config.defaultServiceAccount || fallbackServiceAccount }
      : {}),
    ...(track.kind === 'GitTrack' && target.kind === 'ClusterGitTrack'
      ? { defaultNamespace: namespace }
      : {}),
  };
  return {
    source: { kind: track.kind, namespace, name, uid },
    label: farosLabel(track),
    target,
    spec,
    why,
    credentials,
    promotion,
    blocked,
  };
}
