import { Command, Option } from 'commander';
import { loadCliConfig } from '../config/cliConfig';
import { formatTrackTree } from '../tree/formatTrackTree';
import { loadTrackTree } from '../tree/loadTrackTree';
import { cliKubeClient } from './cliKubeClient';
import { parseTrackArg } from './parseTrackArg';

/** `lightkeeper tree`: a track, its tracking objects and their children, like `flux tree`. Reads only. */
export function treeCommand(): Command {
  return new Command('tree')
    .description('show a track → tracking objects → children: gittrack/NAME -n NS, or clustergittrack/NAME')
    .argument('<track>', 'gittrack/NAME or clustergittrack/NAME')
    .option('-n, --namespace <namespace>', 'namespace of a GitTrack')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (arg: string, opts: { namespace?: string; output: string }) => {
      const track = parseTrackArg(arg, opts.namespace);
      const client = await cliKubeClient(loadCliConfig());
      try {
        const tree = await loadTrackTree(client, track);
        console.log(opts.output === 'json' ? JSON.stringify(tree, null, 2) : formatTrackTree(tree));
      } finally {
        await client.close();
      }
    });
}
