import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { ConfigError, InvokeError, PayloadError, TrackNotFoundError } from '../errors';
import { runningStart } from '../localstack/runningStart';
import { deadEndpoint } from './deadEndpoint';

interface PushOptions {
  repoUrl?: string;
  webhook?: string;
  secret?: string;
  before?: string;
}

/**
 * Delivers the push GitHub would send for a local repository's HEAD (what `lightkeeper start`
 * prints). Without --webhook it delivers to the running `npm start`, with its secret, and by
 * default for its sample repository.
 */
export function pushCommand(): Command {
  return new Command('push')
    .description("deliver a signed GitHub push webhook for a local repository's current HEAD")
    .argument('[repo-dir]', 'working tree of the repository (default: the running `npm start`’s)')
    .option(
      '--repo-url <url>',
      'the URL the tracks clone the repository from (default: the running `npm start`’s)',
    )
    .option(
      '--webhook <url>',
      'webhook URL, e.g. http://127.0.0.1:PORT/webhook (default: the running `npm start`’s)',
    )
    .option('--secret <secret>', 'webhook secret (default: WEBHOOK_SECRET, else the running `npm start`’s)')
    .option('--before <sha>', 'the commit the branch pointed at before (default: the parent of HEAD)')
    .action(async (dir: string | undefined, opts: PushOptions) => {
      const start = opts.webhook === undefined ? runningStart() : undefined;
      if (start)
        console.error(
          `[lightkeeper] delivering to the running \`npm start\` (pid ${start.pid}): ${start.webhookUrl}`,
        );
      const webhook = opts.webhook ?? start?.webhookUrl;
      if (!webhook)
        throw new ConfigError('no --webhook given and no `npm start` running', {
          subject: '--webhook',
          hint: 'start one with `npm start`, or pass --webhook URL and --secret of your deployment',
        });
      const secret = opts.secret ?? loadCliConfig().webhookSecret ?? start?.webhookSecret;
      if (!secret) throw new ConfigError('a webhook secret is needed: --secret or WEBHOOK_SECRET');
      const repoDir = resolve(dir ?? start?.repoDir ?? '.');
      const repoUrl =
        opts.repoUrl ??
        (start && (dir === undefined || repoDir === start.repoDir) ? start.repoUrl : undefined);
      if (!repoUrl)
        throw new ConfigError('--repo-url is needed: the URL the tracks clone this repository from');
      // Loaded here: the example payloads are a dev dependency the other commands do without.
      const { deliverPush } = await import('../localstack/deliverPush');
      const { pushOutcome } = await import('../localstack/pushOutcome');
      const result = await deliverPush({
        repo: { name: basename(repoDir), dir: repoDir, url: repoUrl },
        webhookUrl: webhook,
        secret,
        before: opts.before,
      }).catch((e: unknown) => {
        throw deadEndpoint(e, webhook, 'webhook', '--webhook');
      });
      const outcome = pushOutcome(result, repoUrl);
      if (outcome.accepted) return console.log(outcome.message);
      if (outcome.kind === 'unmatched') throw new TrackNotFoundError(outcome.message, { subject: repoUrl });
      if (outcome.kind === 'refused') throw new PayloadError(outcome.message, { subject: result.commit });
      throw new InvokeError(outcome.message, { subject: webhook });
    });
}
