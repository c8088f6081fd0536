import { Command, Option } from 'commander';
import { loadDeploymentConfig } from '../config/deploymentModes';
import { KubeClient } from '../kube/kubeClient';
import { reconcile } from '../reconcile/reconcile';
import { formatSummary } from './formatSummary';
import { parseTrackArg } from './parseTrackArg';
import { progressReporter } from './progressReporter';
import { withTemporaryDir } from './temporaryDir';

export function reconcileCommand(): Command {
  return new Command('reconcile')
    .description("apply a track's commit now: gittrack/NAME -n NS, or clustergittrack/NAME")
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .option('--commit <sha>', 'apply this full commit SHA instead of the head of the reference')
    .option('--concurrency <n>', 'API requests in flight at once', (v) => Number.parseInt(v, 10), 16)
    .addOption(
      new Option('-o, --output <format>', 'summary format').choices(['text', 'json']).default('text'),
    )
    .action(
      async (
        arg: string,
        opts: { namespace?: string; commit?: string; concurrency: number; output: string },
      ) => {
        const config = loadDeploymentConfig();
        const track = parseTrackArg(arg, opts.namespace);
        const client = await KubeClient.fromFile(process.env.KUBECONFIG || undefined, {
          connections: opts.concurrency,
        });
        try {
          const summary = await withTemporaryDir('lightkeeper-git-', (gitCacheRoot) =>
            reconcile(
              {
                client,
                config,
                concurrency: opts.concurrency,
                onProgress: progressReporter(process.stderr),
                gitCacheRoot,
              },
              { track, commit: opts.commit, mode: 'apply', reason: 'lightkeeper reconcile' },
            ),
          );
          console.log(opts.output === 'json' ? JSON.stringify(summary, null, 2) : formatSummary(summary));
          if (summary.result === 'Failed') process.exitCode = 1;
        } finally {
          await client.close();
        }
      },
    );
}
