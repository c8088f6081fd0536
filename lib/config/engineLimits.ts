import { gitLimitSettings, gitLimitsFromEnv } from '../git/gitLimits';
import { renderLimitSettings, renderLimitsFromEnv } from '../kustomize/kustomizeSettings';
import type { Env, Setting } from '../settings/setting';

/**
 * The limits of a git transfer and of a render. The engine reads them where it fetches and renders
 * (lib/git/gitLimits.ts, lib/kustomize/kustomizeSettings.ts); the loaders check them at start.
 */
export const engineLimitSettings: readonly Setting<unknown>[] = [
  ...Object.values(gitLimitSettings),
  ...Object.values(renderLimitSettings),
];

/** Throws the ConfigError of the first limit set to a value it does not accept. */
export function checkEngineLimits(env: Env): void {
  gitLimitsFromEnv(env);
  renderLimitsFromEnv(env);
}
