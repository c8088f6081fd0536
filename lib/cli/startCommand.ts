import { constants as osConstants } from 'node:os';
import { Command } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { isLightkeeperError } from '../errors';
import { functionLogPrinter } from '../localstack/functionLog';
import { Teardown } from '../localstack/teardown';
import { usage } from '../localstack/usage';

const say = (line: string) => console.error(`[lightkeeper] ${line}`);

/**
 * The embedded default behind `npm start`: a local control plane (unless KUBECONFIG names a
 * cluster), a sample repository over git smart HTTP, the three functions in serverless-offline,
 * sample tracks and one signed push end to end; then it stays up until Ctrl-C or SIGTERM.
 */
export function startCommand(): Command {
  return new Command('start')
    .description(
      'run lightkeeper locally with a sample repository, serverless-offline and one push, until Ctrl-C',
    )
    .option('--verbose', 'print everything serverless-offline and the functions log')
    .action(async (opts: { verbose?: boolean }) => {
      const started = Date.now();
      const stop = new AbortController();
      let received: NodeJS.Signals | undefined;
      const onSignal = (signal: NodeJS.Signals) => {
        if (received) return say(`${signal}: already stopping`);
        received = signal;
        say(`${signal}: stopping`);
        stop.abort();
      };
      process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
      const teardown = new Teardown();
      let ready = false;
      const functionOutput = opts.verbose
        ? (text: string) => process.stderr.write(text)
        : functionLogPrinter((line) => say(`  ${line}`));
      try {
        // Loaded here: the local stack needs the dev dependencies (serverless-offline, the example
        // payloads), which the other commands do without.
        const { startLocalStack } = await import('../localstack/startLocalStack');
        const stack = await startLocalStack({
          kubeconfig: loadCliConfig().kubeconfig,
          log: say,
          signal: stop.signal,
          teardown,
          onFunctionOutput: functionOutput,
        });
        console.log(`\n${stack.report}\n`);
        if (stack.outcome !== 'applied') {
          throw new Error(
            stack.outcome === 'failed'
              ? 'the sample push failed to apply (see the status above)'
              : `the sample push was not applied in time; serverless-offline said:\n${stack.offline.output().slice(-4000)}`,
          );
        }
        console.log(usage(stack));
        // `push` and `replay` find this run by themselves while it is up.
        const { recordStartEndpoints, forgetStartEndpoints } = await import('../localstack/runningStart');
        recordStartEndpoints({
          webhookUrl: stack.offline.webhookUrl,
          webhookSecret: stack.webhookSecret,
          lambdaEndpoint: stack.offline.lambdaEndpoint,
          reconcileFunction: stack.offline.functionName('reconcile'),
          repoDir: stack.repo.dir,
          repoUrl: stack.repo.url,
          kubeconfig: stack.kubeconfig,
        });
        teardown.add('forgetting the endpoints of this run', async () => forgetStartEndpoints());
        ready = true;
        say(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s; Ctrl-C stops everything`);
        const offlineDied = stack.offline.exited.then(() => {
          throw new Error(`serverless-offline exited:\n${stack.offline.output().slice(-4000)}`);
        });
        await Promise.race([
          new Promise((resolve) => stop.signal.addEventListener('abort', resolve)),
          offlineDied,
        ]);
      } catch (e) {
        if (received) {
          // Ctrl-C once up is the normal way out; during startup it is an interruption.
          if (!ready) process.exitCode = 128 + osConstants.signals[received];
        } else {
          say(
            `failed: ${isLightkeeperError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : e}`,
          );
          process.exitCode = 1;
        }
      } finally {
        const clean = await teardown.run(say);
        say(clean ? 'stopped' : 'stopped, with errors (see above)');
        if (!clean) process.exitCode = 1;
        process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      }
    });
}
