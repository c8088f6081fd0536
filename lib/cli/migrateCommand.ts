import { Command, Option } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { formatMigration } from '../migrate/formatMigration';
import { migratedEverything, migrateFaros } from '../migrate/migrateFaros';
import { cliKubeClient } from './cliKubeClient';
import { exitCodes } from './formatError';

/**
 * `lightkeeper migrate faros`: takes over what a Faros installation manages without deleting
 * anything, as the operator (the kubeconfig's identity). Exit 0 everything migrated, 1 something
 * was left in place or interrupted, 2 refused (a Faros controller may be running) or bad usage.
 */
export function migrateCommand(): Command {
  const faros = new Command('faros')
    .description(
      'create lightkeeper tracks for every Faros GitTrack and ClusterGitTrack and hand each child over with no deletion; prints the kubectl command that then removes the Faros objects',
    )
    .option('--dry-run', 'print the plan, write nothing')
    .option('-n, --namespace <namespace>', 'only the Faros GitTracks of this namespace')
    .option(
      '--promote <GitTrack/NS/NAME>',
      "let this Faros GitTrack, whose objects span namespaces, become a ClusterGitTrack acting as the reconciler (following its repository, its credentials copied to the reconciler's namespace); repeatable. Without it such a track is reported and left alone",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: { dryRun?: boolean; namespace?: string; promote: string[]; output: string }) => {
      const settings = loadCliConfig();
      const client = await cliKubeClient(settings);
      // Ctrl-C stops before the next write; the objects in flight finish, a rerun continues.
      const abort = new AbortController();
      const stop = () => abort.abort();
      process.once('SIGINT', stop);
      try {
        const report = await migrateFaros(client, {
          config: settings.deployment,
          reconcilerNamespace: settings.leaseNamespace,
          namespace: opts.namespace,
          promote: opts.promote,
          dryRun: opts.dryRun ?? false,
          signal: abort.signal,
        });
        console.log(opts.output === 'json' ? JSON.stringify(report, null, 2) : formatMigration(report));
        process.exitCode = migratedEverything(report) ? exitCodes.ok : exitCodes.failed;
      } finally {
        process.off('SIGINT', stop);
        await client.close();
      }
    });
  return new Command('migrate')
    .description('take over objects managed by another GitOps controller')
    .addCommand(faros);
}
