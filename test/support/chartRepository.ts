// A Helm chart repository served on loopback (index.yaml and packaged charts from one directory),
// and Helm's own CLI (the oracle, infra/build-helm-oracle.sh) to package, index and vendor charts
// as a chart author does: `helm package`, `helm repo index`, `helm dependency update`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { helmOracleBinary } from './helmOracle';

const run = promisify(execFile);

export interface ChartRepository {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  /** Host and port, as an allow-list names it. */
  host: string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of `dir` read-only on 127.0.0.1 (a GET of a missing file is 404). */
export async function serveChartRepository(dir: string): Promise<ChartRepository> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    requests.push(path);
    const file = join(dir, path);
    if (
      req.method !== 'GET' ||
      !file.startsWith(dir) ||
      !statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const helmHome = mkdtempSync(join(tmpdir(), 'lk-helm-home-'));

/** Runs Helm's CLI with its config, cache and data in a directory of its own. */
export async function helmCli(args: string[]): Promise<string> {
  const helm = await helmOracleBinary();
  const { stdout } = await run(helm, args, {
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: '',
      HOME: helmHome,
      HELM_CACHE_HOME: join(helmHome, 'cache'),
      HELM_CONFIG_HOME: join(helmHome, 'config'),
      HELM_DATA_HOME: join(helmHome, 'data'),
    },
  });
  return stdout;
}
