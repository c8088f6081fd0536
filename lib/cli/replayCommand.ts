import { Command, Option } from 'commander';
import { type CliConfig, loadCliConfig } from '../config/cliConfig';
import { ConfigError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { isCoalesced } from '../lease/coalesced';
import { runningStart } from '../localstack/runningStart';
import { cliKubeClient } from './cliKubeClient';
import { deadEndpoint } from './deadEndpoint';
import { formatSummary } from './formatSummary';
import { parseTrackArg } from './parseTrackArg';
import { onceNote, replayPin } from './replayPin';

interface ReplayOptions {
  namespace?: string;
  commit?: string;
  once?: boolean;
  function?: string;
  endpoint?: string;
  region?: string;
  output: string;
}

/**
 * Where the replay goes: the options, else the running `npm start`; and the kubeconfig of its pin
 * (KUBECONFIG, else the running start's).
 */
function replayTarget(opts: ReplayOptions, settings: Pick<CliConfig, 'kubeconfig'>) {
  const start = opts.function === undefined && opts.endpoint === undefined ? runningStart() : undefined;
  if (start) {
    console.error(
      `[lightkeeper] replaying through the running \`npm start\` (pid ${start.pid}): ${start.reconcileFunction} at ${start.lambdaEndpoint}`,
    );
    return {
      functionName: start.reconcileFunction,
      endpoint: start.lambdaEndpoint,
      kubeconfig: settings.kubeconfig ?? start.kubeconfig,
    };
  }
  if (!opts.function)
    throw new ConfigError('no --function given and no `npm start` running', {
      subject: '--function',
      hint: 'start one with `npm start`, or pass --function NAME (and --endpoint URL for serverless-offline)',
    });
  return {
    functionName: opts.function,
    endpoint: opts.endpoint,
    kubeconfig: settings.kubeconfig,
  };
}

/**
 * What the replay needs and the command's definition does not: the AWS SDK and git's transport,
 * loaded when it runs (`completion` reads every command's options).
 */
const replayDeps = async () => ({
  ...(await import('../lambda/invokeReconcile')),
  ...(await import('../lambda/lambdaClient')),
  ...(await import('./resolveCommitArg')),
});

/** Runs one reconcile through the deployed (or serverless-offline) reconcile function and waits for it. */
export function replayCommand(): Command {
  return new Command('replay')
    .description(
      'reconcile a track through the reconcile Lambda function (RequestResponse), e.g. an older commit',
    )
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .option(
      '--commit <commit>',
      'apply this commit (a SHA, short or full, a branch or a tag) and pin the track there until `lightkeeper unpin` (the pin is written with KUBECONFIG)',
    )
    .option('--once', 'with --commit: apply it without pinning; the next sweep or push undoes it')
    .option(
      '--function <name>',
      'reconcile function name or ARN, e.g. lightkeeper-dev-reconcile (default: the running `npm start`’s)',
    )
    .option('--endpoint <url>', 'Lambda endpoint, e.g. serverless-offline at http://127.0.0.1:3002')
    .option('--region <region>', 'AWS region (default: AWS_REGION)')
    .addOption(
      new Option('-o, --output <format>', 'summary format').choices(['text', 'json']).default('text'),
    )
    .action(async (arg: string, opts: ReplayOptions) => {
      const track = parseTrackArg(arg, opts.namespace);
      const { createLambdaClient, resolveCommitArg, runReconcile } = await replayDeps();
      const settings = loadCliConfig();
      const target = replayTarget(opts, settings);
      // The commit is resolved and the pin written with the caller's own rights, before the
      // function applies it; the function itself may not change a track's spec.
      let kube: KubeClient | undefined;
      const openKube = async () => {
        kube ??= await cliKubeClient({ ...settings, kubeconfig: target.kubeconfig });
        return kube;
      };
      let commit: string | undefined;
      try {
        if (opts.commit !== undefined)
          commit = await resolveCommitArg(
            openKube,
            track,
            opts.commit,
            settings.deployment.sourceLimits.git,
            (line) => console.error(`[lightkeeper] ${line}`),
          );
        await replayPin(openKube, track, { commit, once: opts.once });
      } finally {
        await kube?.close();
      }
      // The SDK's notice about its future Node versions is not this command's output.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      const client = createLambdaClient({ endpoint: target.endpoint, region: opts.region });
      try {
        const summary = await runReconcile(client, target.functionName, {
          track,
          commit,
          mode: 'apply',
          reason: `replay by ${process.env.USER ?? 'lightkeeper replay'}${commit ? ` of ${commit}` : ''}`,
        }).catch((e: unknown) => {
          throw target.endpoint ? deadEndpoint(e, target.endpoint, 'reconcile function', '--endpoint') : e;
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
    });
}
