import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { ConfigError } from '../errors';
import { isCoalesced } from '../lease/coalesced';
import { leaseTarget } from '../lease/leaseTarget';
import { isServed } from '../lease/served';
import type { TrackLease } from '../lease/trackLease';
import { defaultConcurrency } from '../settings/defaults';
import { cliKubeClient } from './cliKubeClient';
import { formatSummary } from './formatSummary';
import { parseTrackArg } from './parseTrackArg';
import { progressReporter } from './progressReporter';
import { onceNote, replayPin } from './replayPin';
import { requestReconcile } from './requestReconcile';
import { withTemporaryDir } from './temporaryDir';

export function reconcileCommand(): Command {
  return new Command('reconcile')
    .description("apply a track's commit now: gittrack/NAME -n NS, or clustergittrack/NAME")
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .option(
      '--commit <commit>',
      'apply this commit (a SHA, short or full, a branch or a tag) and pin the track there until `lightkeeper unpin` (sweeps and pushes keep it)',
    )
    .option('--once', 'with --commit: apply it without pinning; the next sweep or push undoes it')
    .option(
      '--request',
      'ask the deployment to reconcile it (annotation lightkeeper.dev/requestedAt) and wait for that run',
    )
    .option('--timeout <duration>', 'with --request: how long to wait for the run (0: do not wait)', '3m')
    .option(
      '--concurrency <n>',
      'API requests in flight at once',
      (v) => Number.parseInt(v, 10),
      defaultConcurrency,
    )
    .option(
      '--wait <seconds>',
      "how long to wait for the track's lease while another reconcile holds it",
      (v) => Number.parseInt(v, 10),
      900,
    )
    .addOption(
      new Option('-o, --output <format>', 'summary format').choices(['text', 'json']).default('text'),
    )
    .action(
      async (
        arg: string,
        opts: {
          namespace?: string;
          commit?: string;
          once?: boolean;
          request?: boolean;
          timeout: string;
          concurrency: number;
          wait: number;
          output: string;
        },
      ) => {
        const settings = loadCliConfig();
        const track = parseTrackArg(arg, opts.namespace);
        // The engine and git's transport load when a reconcile runs (beside the client), not when
        // `completion` defines the command.
        const [client, { reconcileUnderLease }, { resolveCommitArg }] = await Promise.all([
          cliKubeClient(settings, { connections: opts.concurrency }),
          import('../lambda/reconcileUnderLease'),
          import('./resolveCommitArg'),
        ]);
        const say = (line: string) => process.stderr.write(`[lightkeeper] ${line}\n`);
        const commit = await resolveCommitArg(
          client,
          track,
          opts.commit,
          settings.deployment.sourceLimits.git,
          say,
        );
        if (opts.request) {
          if (commit)
            throw new ConfigError('--request asks for the head (or pin): give --commit without --request');
          const ready = await requestReconcile(client, track, { timeout: opts.timeout, say }).finally(() =>
            client.close(),
          );
          if (!ready) process.exitCode = 1;
          return;
        }
        const namespace = settings.leaseNamespace;
        const { name } = leaseTarget(track, namespace);
        // Ctrl-C or SIGTERM releases the lease at once, so the next reconcile need not wait out its TTL.
        let held: TrackLease | undefined;
        const stop = (signal: NodeJS.Signals) => {
          const release = held?.release() ?? Promise.resolve();
          void release.catch(() => {}).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
        };
        process.once('SIGINT', stop).once('SIGTERM', stop);
        let waited = false;
        try {
          await replayPin(async () => client, track, { commit, once: opts.once });
          const out = await withTemporaryDir('lightkeeper-git-', (gitCacheRoot) =>
            reconcileUnderLease(
              {
                client,
                config: settings.deployment,
                concurrency: opts.concurrency,
                onProgress: progressReporter(process.stderr),
                gitCacheRoot,
              },
              { track, commit, mode: 'apply', reason: 'lightkeeper reconcile' },
              {
                namespace,
                holder: `cli/${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`,
                waitUntil: Date.now() + opts.wait * 1000,
                // Someone at a terminal asked for this run: it waits its turn, never coalesced away.
                coalesce: false,
                onWait: (heldBy) => {
                  waited = true;
                  say(`waiting for lease ${namespace}/${name}, held by ${heldBy}`);
                },
                onAcquired: (lease) => {
                  held = lease;
                  if (waited) say(`lease ${namespace}/${name} acquired`);
                },
                onRenewalProblem: (problem) =>
                  say(
                    `lease renewal failed: ${problem instanceof Error ? problem.message : String(problem)}`,
                  ),
              },
            ),
          );
          if (isCoalesced(out) || isServed(out))
            throw new Error('a reconcile from the CLI is never coalesced nor served already');
          console.log(opts.output === 'json' ? JSON.stringify(out, null, 2) : formatSummary(out));
          if (opts.once && opts.output !== 'json') console.log(onceNote(out));
          // Waiting: held back by spec.dependsOn, nothing applied; a script must not take it for done.
          if (out.result === 'Failed' || out.result === 'Aborted' || out.result === 'Waiting')
            process.exitCode = 1;
        } finally {
          process.off('SIGINT', stop).off('SIGTERM', stop);
          await client.close();
        }
      },
    );
}
