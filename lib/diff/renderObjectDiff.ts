import { stringify } from 'yaml';
import type { JsonObject } from '../manifests';
import { maskSecretPair } from './maskSecret';
import { unifiedDiff } from './unifiedDiff';

/** One object's change as `kubectl diff` shows it: YAML of live and desired, Secret values masked. */
export function renderObjectDiff(subject: string, live: JsonObject, desired: JsonObject): string {
  const masked = maskSecretPair(live, desired);
  return unifiedDiff(yamlText(masked.before), yamlText(masked.after), {
    before: `${subject} (live)`,
    after: `${subject} (desired)`,
  });
}

const yamlText = (object: JsonObject | undefined) =>
  object === undefined ? '' : stringify(object, { sortMapEntries: true, lineWidth: 0 });
