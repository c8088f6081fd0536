import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, typeScriptFiles } from '../../support/importGraph';

// Issue 20: settings are read once, by one validated loader per function and the CLI (lib/config,
// over the parsers of lib/settings); the engine gets their values passed in. A `process.env` read
// anywhere else in lib/ fails here unless it is listed below with why it is not a setting.

const readers = ['lib/config/', 'lib/settings/', 'lib/cli/', 'lib/localstack/', 'lib/controlplane/'];
const allowed: Record<string, string> = {
  'lib/kustomize/runKustomizeRender.ts': "PATH handed to the render engine's process",
  'lib/kube/loadKubeConfig.ts':
    'KUBECONFIG as kubectl reads it, the default of an env parameter the loaders pass',
  'lib/lambda/lambdaClient.ts': "the AWS SDK's own variables, the default of an env parameter",
  'lib/pin/trackPin.ts': 'USER, who pinned, when the API server cannot say',
};

describe('reading the environment', () => {
  it('happens in the loaders and the local tools, not in the engine', () => {
    const reading = typeScriptFiles('lib').filter(
      (f) =>
        !readers.some((r) => f.startsWith(r)) &&
        !(f in allowed) &&
        readFileSync(join(root, f), 'utf8').includes('process.env'),
    );
    expect(reading).toEqual([]);
  });
});
