// What the functions' bundles use of undici (serverless.yml aliases `undici` here): an Agent, and
// `request` as undici's index exports it, from undici's own modules. Its index also loads fetch,
// WebSocket, EventSource, cookies and the cache (a third of a function's bundle), and their use of
// globalThis.Headers loads Node's own copy of undici as the function starts: together about 30 ms
// of a cold start (bench/coldStart.ts). Every name lib/ imports from 'undici' must be exported here
// (test/unit/config/bundleAliases.test.ts); its request answers as undici's own
// (test/integration/kube/bundledUndici.test.ts).
'use strict';
const Agent = require('../../node_modules/undici/lib/dispatcher/agent.js');
const api = require('../../node_modules/undici/lib/api/index.js');
const { getGlobalDispatcher } = require('../../node_modules/undici/lib/global.js');
const { InvalidArgumentError } = require('../../node_modules/undici/lib/core/errors.js');
const util = require('../../node_modules/undici/lib/core/util.js');

/** undici's `request(url, opts)` (as its types allow: a URL, no opts.path), on opts.dispatcher. */
function request(url, opts = {}) {
  if (opts.agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  const target = util.parseURL(url);
  const { dispatcher = getGlobalDispatcher() } = opts;
  return api.request.call(dispatcher, {
    ...opts,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}

module.exports = { Agent, request };
