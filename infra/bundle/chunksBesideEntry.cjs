// serverless.yml bundles each function with code splitting, so the clients a function reaches only
// through import() (lib/lambda/lazyLambdaClient.ts, ssmMiddleware.ts, ...) are chunks it does not
// even parse at a cold start. serverless-esbuild builds every function into one directory and zips
// into each function all of it but the other functions' `<entry>.*` files: this puts each function's
// chunks in `functions/<entry>.chunks/`, which that rule then keeps out of the other functions' zips.
'use strict';
const { basename, extname } = require('node:path');

module.exports = [
  {
    name: 'chunks-beside-entry',
    setup(build) {
      const entries = build.initialOptions.entryPoints;
      if (!Array.isArray(entries) || entries.length !== 1 || typeof entries[0] !== 'string')
        throw new Error(`chunks-beside-entry: one entry point per build expected, got ${JSON.stringify(entries)}`);
      const entry = basename(entries[0], extname(entries[0]));
      build.initialOptions.chunkNames = `${entry}.chunks/[name]-[hash]`;
    },
  },
];
