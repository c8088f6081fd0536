import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { ConfigError, InvokeError, PayloadError, TrackNotFoundError } from '../errors';

/** Delivers the push GitHub would send for a local repository's HEAD (what `lightkeeper start` prints). */
export function pushCommand(): Command {
  return new Command('push')
    .description("deliver a signed GitHub push webhook for a local repository's current HEAD")
    .argument('<repo-dir>', 'working tree of the repository')
    .requiredOption('--repo-url <url>', 'the URL the tracks clone the repository from')
    .requiredOption('--webhook <url>', 'webhook URL, e.g. http://127.0.0.1:PORT/webhook')
    .option('--secret <secret>', 'webhook secret (default: WEBHOOK_SECRET)')
    .option('--before <sha>', 'the commit the branch pointed at before (default: the parent of HEAD)')
    .action(
      async (dir: string, opts: { repoUrl: string; webhook: string; secret?: string; before?: string }) => {
        const secret = opts.secret ?? loadCliConfig().webhookSecret;
        if (!secret) throw new ConfigError('a webhook secret is needed: --secret or WEBHOOK_SECRET');
        const repoDir = resolve(dir);
        // Loaded here: the example payloads are a dev dependency the other commands do without.
        const { deliverPush } = await import('../localstack/deliverPush');
        const { pushOutcome } = await import('../localstack/pushOutcome');
        const result = await deliverPush({
          repo: { name: basename(repoDir), dir: repoDir, url: opts.repoUrl },
          webhookUrl: opts.webhook,
          secret,
          before: opts.before,
        });
        const outcome = pushOutcome(result, opts.repoUrl);
        if (outcome.accepted) return console.log(outcome.message);
        if (outcome.kind === 'unmatched')
          throw new TrackNotFoundError(outcome.message, { subject: opts.repoUrl });
        if (outcome.kind === 'refused') throw new PayloadError(outcome.message, { subject: result.commit });
        throw new InvokeError(outcome.message, { subject: opts.webhook });
      },
    );
}
