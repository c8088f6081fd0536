// `node:http` for the functions' bundles (serverless.yml aliases it here): the AWS SDK's ES modules
// import it, and an ES import of a builtin reads every export, among them node:http's lazy
// WebSocket getters, which load Node's own copy of undici as the function starts (about 10 ms of a
// cold start). Required as CommonJS, nothing is read until it is used.
'use strict';
// 'http', not 'node:http': that name is the alias, which would bring this file back.
module.exports = require('http');
