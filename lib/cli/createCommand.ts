import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import type { TrackKind } from '../track/trackRef';
import { type TrackOptions, trackManifest } from './trackManifest';

export interface CreateOptions extends TrackOptions {
  namespace?: string;
  export?: boolean;
  wait: boolean;
  timeout: string;
  overwrite?: boolean;
}

/** `lightkeeper create gittrack|clustergittrack NAME …`, as `flux create source git` + kustomization. */
export function createCommand(): Command {
  return new Command('create')
    .description('create a GitTrack or ClusterGitTrack, or print it with --export')
    .addCommand(trackSubcommand('GitTrack'))
    .addCommand(trackSubcommand('ClusterGitTrack'));
}

function trackSubcommand(kind: TrackKind): Command {
  const command = new Command(kind.toLowerCase())
    .alias(kind === 'GitTrack' ? 'gt' : 'cgt')
    .description(
      kind === 'GitTrack'
        ? "a GitTrack: applies a repository's manifests to its own namespace, as its ServiceAccount"
        : "a ClusterGitTrack: applies a repository's manifests cluster-wide, as the reconciler",
    )
    .argument('<name>', 'name of the track')
    .requiredOption('--url <url>', 'http(s) clone URL of the repository')
    .option('--branch <branch>', 'follow this branch (the default: main)')
    .option('--tag <tag>', 'follow this tag')
    .option('--commit <sha>', 'stay at this full commit SHA')
    .option('--path <path>', 'folder of the repository to read (default: its root)')
    .option(
      '--secret-ref <secret>',
      kind === 'GitTrack'
        ? 'Secret of the namespace with the credentials (key token, username + password, or Flux’s githubApp* keys)'
        : 'NAMESPACE/NAME of the Secret with the credentials (key token, username + password, or Flux’s githubApp* keys)',
    )
    .addOption(
      new Option('--auth-type <type>', 'how the Secret is used (with --secret-ref)').choices([
        'token',
        'basic',
        'githubApp',
      ]),
    );
  if (kind === 'GitTrack')
    command
      .option('-n, --namespace <namespace>', 'namespace of the GitTrack (default: the context’s)')
      .option('--service-account <name>', 'ServiceAccount of the namespace whose rights apply the manifests');
  else command.option('--default-namespace <namespace>', 'namespace for manifests that name none');
  return command
    .option('--health-timeout <duration>', 'wait this long for changed objects to be healthy, e.g. 2m')
    .addOption(
      new Option('--deletion-policy <policy>', 'what deleting the track does to its objects').choices([
        'Delete',
        'Orphan',
      ]),
    )
    .option('--no-prune', 'keep objects whose manifests left the repository')
    .option('--suspend', 'create it suspended: nothing is applied until `lightkeeper resume`')
    .option('--export', 'print the YAML and exit: nothing is sent to the cluster')
    .option('--overwrite', 'change an existing track of this name (otherwise refused)')
    .option('--no-wait', 'do not wait for the first reconcile')
    .option('--timeout <duration>', 'how long to wait for the first reconcile', '3m')
    .action(async (name: string, opts: CreateOptions) => {
      // The cluster's modules are loaded only to send it: --export answers at once.
      const namespace =
        kind === 'GitTrack'
          ? (opts.namespace ?? (await (await import('./cliKube')).contextNamespace()))
          : undefined;
      const manifest = trackManifest(kind, name, namespace, opts);
      // --export reads no cluster: the YAML goes to a repository or to `kubectl apply -f -`.
      if (opts.export) return void process.stdout.write(`---\n${stringify(manifest)}`);
      const { withUserClient } = await import('./cliKube');
      const { applyTrack } = await import('./applyTrack');
      await withUserClient((client) => applyTrack(client, { kind, name, namespace }, manifest, opts));
    });
}
