// Cold start of each packaged function: the `import` of its bundle in a fresh Node process (what
// Lambda's init phase adds to Node's own start), next to the whole run of a bare `node -e ''`.
import { execFileSync } from 'node:child_process';
import { type FunctionName, functionNames } from './packagedFunctions';

export interface ColdStarts {
  /** Median import time of each bundle, ms. */
  importMs: Record<FunctionName, number>;
  /** Median wall time of a fresh process that only imports the bundle, ms. */
  processMs: Record<FunctionName, number>;
  /** Median wall time of `node -e ''`, ms: Node's own start, for scale. */
  nodeMs: number;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function wall(args: string[], env: NodeJS.ProcessEnv): { wallMs: number; stdout: string } {
  const started = performance.now();
  const stdout = execFileSync(process.execPath, args, {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return { wallMs: performance.now() - started, stdout };
}

export function measureColdStarts(bundles: Record<FunctionName, string>, runs = 5): ColdStarts {
  // What the functions need set to import without failing (nothing is contacted at import).
  const env = {
    ...process.env,
    WEBHOOK_SECRET: 'bench',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const importMs = {} as Record<FunctionName, number>;
  const processMs = {} as Record<FunctionName, number>;
  for (const fn of functionNames) {
    const script = `const t=performance.now();await import(${JSON.stringify(bundles[fn])});console.log(performance.now()-t)`;
    const samples = Array.from({ length: runs }, () => wall(['--input-type=module', '-e', script], env));
    importMs[fn] = median(samples.map((s) => Number(s.stdout.trim())));
    processMs[fn] = median(samples.map((s) => s.wallMs));
  }
  const nodeMs = median(Array.from({ length: runs }, () => wall(['-e', ''], env).wallMs));
  return { importMs, processMs, nodeMs };
}
