import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GIT_LIMIT_SETTINGS } from '../../../lib/settings/sourceLimits';

// Every git limit can be set per deployment: the reconcile function (the only one that fetches)
// passes each variable from the deploying environment, empty (the default) when it is not set.

const file = parse(readFileSync(join(__dirname, '../../../serverless.yml'), 'utf8')) as {
  functions: Record<string, { environment?: Record<string, string> }>;
};

describe('serverless.yml', () => {
  it.each(Object.values(GIT_LIMIT_SETTINGS))('passes %s to the reconcile function', (name) => {
    expect(file.functions.reconcile?.environment?.[name]).toBe(`\${env:${name}, ''}`);
  });
});
