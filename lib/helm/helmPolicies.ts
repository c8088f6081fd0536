/** `spec.helm.crds`: what becomes of the chart's `crds/` (Flux's HelmRelease names). */
export type CrdPolicy = 'CreateReplace' | 'Create' | 'Skip';
/** `spec.helm.hooks`: whether the chart's `helm.sh/hook` objects run. */
export type HookPolicy = 'Skip' | 'Run';

export const crdPolicies: readonly CrdPolicy[] = ['CreateReplace', 'Create', 'Skip'];
export const hookPolicies: readonly HookPolicy[] = ['Skip', 'Run'];

export interface HelmPolicies {
  /** Default CreateReplace: created and updated with the chart, never deleted. */
  crds: CrdPolicy;
  /** Default Skip: hooks are named in the status, never applied. */
  hooks: HookPolicy;
}

export type ResolvedPolicies = ({ ok: true } & HelmPolicies) | { ok: false; reason: string };

/** `spec.helm.crds` and `spec.helm.hooks` with their defaults, or why they are refused. */
export function resolveHelmPolicies(spec: {
  crds?: string | undefined;
  hooks?: string | undefined;
}): ResolvedPolicies {
  const crds = spec.crds ?? 'CreateReplace';
  if (!crdPolicies.includes(crds as CrdPolicy))
    return { ok: false, reason: `spec.helm.crds must be one of ${crdPolicies.join(', ')}, not ${crds}` };
  const hooks = spec.hooks ?? 'Skip';
  if (!hookPolicies.includes(hooks as HookPolicy))
    return { ok: false, reason: `spec.helm.hooks must be one of ${hookPolicies.join(', ')}, not ${hooks}` };
  return { ok: true, crds: crds as CrdPolicy, hooks: hooks as HookPolicy };
}
