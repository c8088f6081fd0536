import { describe, expect, it } from 'vitest';
import { functionLogPrinter } from '../../../lib/localstack/functionLog';

const printed = (...chunks: string[]) => {
  const lines: string[] = [];
  const printer = functionLogPrinter((line) => lines.push(line));
  for (const chunk of chunks) printer(chunk);
  return lines;
};

// What serverless-offline printed when the bundle it served had been deleted under it.
const missingBundle = `
POST /webhook (λ: webhook)
× Unhandled exception in handler 'webhook'.
× Runtime.ImportModuleError: Error: Cannot find module '/w/.esbuild/.build/functions/webhook.ts'
  Require stack:
  - /w/node_modules/tsx/dist/register-B1c7OH6V.cjs
      at _loadUserApp (/w/node_modules/serverless-offline/src/lambda/handler-runner/in-process-runner/aws-lambda-ric/UserFunction.js:275:13)
× Error: Cannot find module '/w/.esbuild/.build/functions/webhook.ts'
  Require stack:
  - /w/node_modules/tsx/dist/register-B1c7OH6V.cjs
`;

describe('functionLogPrinter', () => {
  it('reports a function that failed before it could log, once, naming the function', () => {
    expect(printed(missingBundle)).toEqual([
      "webhook failed: Runtime.ImportModuleError: Error: Cannot find module '/w/.esbuild/.build/functions/webhook.ts'",
    ]);
  });

  it('summarizes a reconcile, also one that resolved no commit, across split chunks', () => {
    const failed = JSON.stringify({
      level: 'INFO',
      message: 'reconciled',
      track: { kind: 'ClusterGitTrack', name: 'demo' },
      result: 'Failed',
      reference: 'main',
      counts: { failed: 0 },
      errors: ['could not fetch'],
    });
    expect(printed(failed.slice(0, 30), `${failed.slice(30)}\n`)).toEqual([
      'reconciled ClusterGitTrack/demo: Failed fetching main (0 applied, 0 in sync, 0 pruned, 0 failed, 0 drifted): could not fetch',
    ]);
  });
});
