import { Command } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { unpinTrack } from '../pin/trackPin';
import { trackLabel } from '../track/trackRef';
import { cliKubeClient } from './cliKubeClient';
import { parseTrackArg } from './parseTrackArg';

/**
 * Removes a track's pin (spec.pin, set by a replay), with the caller's kubeconfig. The change is
 * to the track's spec, so its generation moves on and the check of changed tracks reconciles it
 * within a minute; a push does it sooner, `lightkeeper reconcile` at once.
 */
export function unpinCommand(): Command {
  return new Command('unpin')
    .description(
      'let a pinned track follow its reference again: gittrack/NAME -n NS, or clustergittrack/NAME',
    )
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .action(async (arg: string, opts: { namespace?: string }) => {
      const track = parseTrackArg(arg, opts.namespace);
      const client = await cliKubeClient(loadCliConfig());
      try {
        const pin = await unpinTrack(client, track);
        const reconcileNow = `lightkeeper reconcile ${track.kind.toLowerCase()}/${track.name}${track.namespace ? ` -n ${track.namespace}` : ''}`;
        if (!pin) {
          console.log(`${trackLabel(track)} is not pinned: it follows its reference`);
          return;
        }
        console.log(
          [
            `unpinned ${trackLabel(track)} (was pinned at ${pin.commit}${pin.by ? ` by ${pin.by}` : ''}${pin.at ? ` since ${pin.at}` : ''})`,
            `  it follows its reference again from its next reconcile: the next push, the check of changed tracks (within a minute, where a deployment or \`npm start\` runs one; a \`cluster up\` plane runs none), or now with \`${reconcileNow}\``,
          ].join('\n'),
        );
      } finally {
        await client.close();
      }
    });
}
