// The variables naming where a function's kubeconfig, secrets and token come from: a plain
// variable (local runs), else an SSM parameter fetched per invocation (lib/settings/functionSettings).
import { type SettingKey, settingName } from '../settings/functionSettings';
import { type Setting, text } from '../settings/setting';

/** What a plain variable holds, for each setting a function may also read from SSM. */
const plainValue: Record<SettingKey, string> = {
  webhookSecret: 'the webhook secret itself (local runs; `lightkeeper push` signs with it)',
  previousWebhookSecret: 'the secret being rotated out, still accepted (local runs)',
  kubeconfig: 'kubeconfig file paths separated by ":", as kubectl reads KUBECONFIG',
  webhookKubeconfig: 'a kubeconfig file path (local runs)',
  sweepKubeconfig: 'a kubeconfig file path (local runs)',
  githubToken: 'a GitHub token (local runs)',
};

/** A setting's plain variable. */
export const plainSourceSetting = (key: SettingKey): Setting<string | undefined> =>
  text(settingName(key), plainValue[key]);

/** A setting's plain variable and its `_SSM_PARAMETER` (the plain one wins). */
export const sourceSettings = (key: SettingKey): Setting<string | undefined>[] => [
  plainSourceSetting(key),
  text(`${settingName(key)}_SSM_PARAMETER`, 'an SSM parameter name'),
];
