import { Command, Option } from 'commander';
import { auditCluster } from '../audit/auditCluster';
import { formatAudit } from '../audit/formatAudit';
import { loadCliConfig } from '../config/cliConfig';
import { wantsDebug } from '../config/cliDebug';
import { cliKubeClient } from './cliKubeClient';
import { exitCodeFor, exitCodes, formatError } from './formatError';
import { progressReporter } from './progressReporter';

/**
 * `lightkeeper audit`: the owner references the garbage collector will act on. Exit 0 clean, 1
 * findings, and an error never 1 (as `flux diff`): 2, or 3 when the API server is unreachable.
 */
export function auditCommand(): Command {
  return new Command('audit')
    .description(
      'find owner references the garbage collector treats as absent or invalid (the Faros incident); exit 1 when any',
    )
    .option(
      '-n, --namespace <namespace>',
      'report only dependents in this namespace (repeatable); the scan still covers the cluster',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .addOption(new Option('-o, --output <format>', 'report format').choices(['text', 'json']).default('text'))
    .action(async (opts: { namespace: string[]; output: string }) => {
      try {
        const client = await cliKubeClient(loadCliConfig());
        try {
          const progress = progressReporter(process.stderr);
          const report = await auditCluster(client, {
            namespaces: opts.namespace,
            onProgress: (done, total) => progress('scan', done, total),
          });
          if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
          console.log(opts.output === 'json' ? JSON.stringify(report, null, 2) : formatAudit(report));
          process.exitCode = report.findings.length > 0 ? exitCodes.failed : exitCodes.ok;
        } finally {
          await client.close();
        }
      } catch (e) {
        console.error(formatError(e, { debug: wantsDebug(process.argv) }));
        const code = exitCodeFor(e);
        process.exitCode = code === exitCodes.failed ? exitCodes.usage : code;
      }
    });
}
