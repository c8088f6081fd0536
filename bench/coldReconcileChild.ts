// One invocation of the packaged reconcile function in a fresh Node process, as a Lambda cold start
// runs it: import the bundle (init), call its handler once, exit. Every HTTP request the function
// makes is timed through Node's diagnostics channels (node:http for git, undici for the API
// server), so the driver can tell fetch, parse, list, apply and status apart without touching the
// function. Prints a ColdInvocation as its last line.
//
//   node coldReconcileChild.mjs BUNDLE EVENT_JSON
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';

export interface TimedRequest {
  method: string;
  path: string;
  start: number;
  end?: number;
}

export interface ColdInvocation {
  /** Epoch ms: process start (Node's time origin), around the import, around the handler. */
  processStart: number;
  importStart: number;
  importEnd: number;
  handlerStart: number;
  handlerEnd: number;
  git: TimedRequest[];
  api: TimedRequest[];
  result: unknown;
  error?: string;
}

const now = () => performance.timeOrigin + performance.now();
const processStart = performance.timeOrigin;
const git: TimedRequest[] = [];
const api: TimedRequest[] = [];
const started = new WeakMap<object, TimedRequest>();

subscribe('http.client.request.start', (message) => {
  const { request } = message as { request: { method: string; path: string } };
  const timed = { method: request.method, path: request.path, start: now() };
  started.set(request, timed);
  git.push(timed);
});
subscribe('http.client.response.finish', (message) => {
  const timed = started.get((message as { request: object }).request);
  if (timed) timed.end = now();
});
subscribe('undici:request:create', (message) => {
  const { request } = message as { request: { method: string; path: string } };
  const timed = { method: request.method, path: request.path, start: now() };
  started.set(request, timed);
  api.push(timed);
});
const finished = (message: unknown) => {
  const timed = started.get((message as { request: object }).request);
  if (timed && timed.end === undefined) timed.end = now();
};
subscribe('undici:request:trailers', finished);
subscribe('undici:request:error', finished);

const [bundle = '', eventJson = ''] = process.argv.slice(2);
const deadline = Date.now() + 900_000;
const context = {
  awsRequestId: randomUUID(),
  functionName: 'lightkeeper-dev-reconcile',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:lightkeeper-dev-reconcile',
  memoryLimitInMB: '1024',
  logGroupName: '/aws/lambda/lightkeeper-dev-reconcile',
  logStreamName: 'bench',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => deadline - Date.now(),
  done: () => {},
  fail: () => {},
  succeed: () => {},
};

const importStart = now();
const fn = (await import(bundle)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
const importEnd = now();
let result: unknown;
let error: string | undefined;
const handlerStart = now();
try {
  result = await fn.handler(JSON.parse(eventJson), context);
} catch (e) {
  error = e instanceof Error ? e.message : String(e);
}
const handlerEnd = now();
const out: ColdInvocation = {
  processStart,
  importStart,
  importEnd,
  handlerStart,
  handlerEnd,
  git,
  api,
  result,
  ...(error ? { error } : {}),
};
console.log(JSON.stringify(out));
// The function's API-server connections stay open, as in a warm container: this one is done.
process.exit(0);
