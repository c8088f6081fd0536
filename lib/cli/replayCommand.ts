import { Command, Option } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import type { KubeClient } from '../kube/kubeClient';
import { runReconcile } from '../lambda/invokeReconcile';
import { createLambdaClient } from '../lambda/lambdaClient';
import { isCoalesced } from '../lease/coalesced';
import { cliKubeClient } from './cliKubeClient';
import { formatSummary } from './formatSummary';
import { parseCommitArg } from './parseCommitArg';
import { parseTrackArg } from './parseTrackArg';
import { onceNote, replayPin } from './replayPin';

/** Runs one reconcile through the deployed (or serverless-offline) reconcile function and waits for it. */
export function replayCommand(): Command {
  return new Command('replay')
    .description(
      'reconcile a track through the reconcile Lambda function (RequestResponse), e.g. an older commit',
    )
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .option(
      '--commit <sha>',
      'apply this full commit SHA and pin the track there until `lightkeeper unpin` (the pin is written with KUBECONFIG)',
    )
    .option('--once', 'with --commit: apply it without pinning; the next sweep or push undoes it')
    .requiredOption('--function <name>', 'reconcile function name or ARN, e.g. lightkeeper-dev-reconcile')
    .option('--endpoint <url>', 'Lambda endpoint, e.g. serverless-offline at http://127.0.0.1:3002')
    .option('--region <region>', 'AWS region (default: AWS_REGION)')
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
          function: string;
          endpoint?: string;
          region?: string;
          output: string;
        },
      ) => {
        const track = parseTrackArg(arg, opts.namespace);
        const commit = parseCommitArg(opts.commit);
        // The pin is the caller's change to the track, made with the caller's own rights, before the
        // function applies it; the function itself may not change a track's spec.
        let kube: KubeClient | undefined;
        try {
          await replayPin(
            async () => {
              kube = await cliKubeClient(loadCliConfig());
              return kube;
            },
            track,
            { commit, once: opts.once },
          );
        } finally {
          await kube?.close();
        }
        // The SDK's notice about its future Node versions is not this command's output.
        process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
        const client = createLambdaClient({ endpoint: opts.endpoint, region: opts.region });
        try {
          const summary = await runReconcile(client, opts.function, {
            track,
            commit,
            mode: 'apply',
            reason: `replay by ${process.env.USER ?? 'lightkeeper replay'}${commit ? ` of ${commit}` : ''}`,
          });
          if (opts.output === 'json') console.log(JSON.stringify(summary, null, 2));
          else if (isCoalesced(summary))
            console.log(
              `coalesced: the track is running (${summary.heldBy}) and ${summary.waiter} waits to reconcile its newest head`,
            );
          else {
            console.log(formatSummary(summary));
            if (opts.once) console.log(onceNote(summary));
          }
          // Waiting: held back by spec.dependsOn, nothing applied (the dependency invokes it once Ready).
          if (!isCoalesced(summary) && ['Failed', 'Aborted', 'Waiting'].includes(summary.result))
            process.exitCode = 1;
        } finally {
          client.destroy();
        }
      },
    );
}
