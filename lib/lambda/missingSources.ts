import { hasSource, type SettingKey } from '../settings/functionSettings';

type Env = Readonly<Record<string, string | undefined>>;

// What a function cannot do without a setting, said once at cold start. The webhook and the sweep
// name their own kubeconfigs: the reconcile function's KUBECONFIG is never theirs.
const consequences: Partial<Record<SettingKey, string>> = {
  webhookSecret:
    'no webhook secret configured (WEBHOOK_SECRET or WEBHOOK_SECRET_SSM_PARAMETER): answering 500',
  webhookKubeconfig:
    'no webhook kubeconfig configured (WEBHOOK_KUBECONFIG or WEBHOOK_KUBECONFIG_SSM_PARAMETER; the reconcile function’s KUBECONFIG is never used): pushes answer 500',
  sweepKubeconfig:
    'no sweep kubeconfig configured (SWEEP_KUBECONFIG or SWEEP_KUBECONFIG_SSM_PARAMETER; the reconcile function’s KUBECONFIG is never used): sweeps fail',
};

/** An error line for each of `keys` the function's sources do not provide. */
export const missingSources = (keys: readonly SettingKey[], sources: Env): string[] =>
  keys.filter((key) => !hasSource(key, sources)).flatMap((key) => consequences[key] ?? []);
