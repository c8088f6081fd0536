import { Command } from 'commander';
import { isLightkeeperError } from '../errors';
import { startLocalStack } from '../localstack/startLocalStack';
import { Teardown } from '../localstack/teardown';
import { usage } from '../localstack/usage';

const say = (line: string) => console.error(`[lightkeeper] ${line}`);

class Interrupted extends Error {}

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
      const onSignal = (signal: NodeJS.Signals) => {
        if (stop.signal.aborted) return say(`${signal}: already stopping`);
        say(`${signal}: stopping`);
        stop.abort(new Interrupted(signal));
      };
      process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
      const teardown = new Teardown();
      let ready = false;
      const functionOutput = (text: string) => {
        if (opts.verbose) process.stderr.write(text);
        else if (ready) for (const line of invocationLines(text)) say(line);
      };
      try {
        const stack = await startLocalStack({
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
        if (stop.signal.aborted && (e === stop.signal.reason || isAbort(e) || ready)) {
          // Ctrl-C once up is the normal way out; during startup it is an interruption.
          if (!ready) process.exitCode = 130;
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

const isAbort = (e: unknown) => e instanceof Error && e.name === 'AbortError';

/** serverless-offline's one line per finished invocation, e.g. `(λ: reconcile) RequestId: … Duration: …`. */
function invocationLines(text: string): string[] {
  return text.split('\n').filter((line) => /\(λ: \w+\) RequestId:/.test(line));
}
