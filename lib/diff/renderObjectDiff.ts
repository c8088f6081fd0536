import { stringify } from 'yaml';
import type { JsonObject } from '../manifests';
import { maskValuesPair } from './maskDecrypted';
import { unifiedDiff } from './unifiedDiff';

/** One object's change as `kubectl diff` shows it: YAML of live and desired, the values of Secrets and of decrypted objects masked. */
export function renderObjectDiff(subject: string, live: JsonObject, desired: JsonObject): string {
  const masked = maskValuesPair(live, desired);
  return unifiedDiff(yamlText(masked.before), yamlText(masked.after), {
    before: `${subject} (live)`,
    after: `${subject} (desired)`,
  });
}

const yamlText = (object: JsonObject | undefined) =>
  object === undefined ? '' : stringify(object, { sortMapEntries: true, lineWidth: 0 });
