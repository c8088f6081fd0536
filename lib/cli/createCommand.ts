import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { ConfigError } from '../errors';
import { parseDuration } from '../health/parseDuration';
import type { KubeClient } from '../kube/kubeClient';
import { type TrackObject, trackLabel, trackPath } from '../reconcile/loadTrack';
import type { TrackKind, TrackRef } from '../reconcile/types';
import { contextNamespace, withUserClient } from './cliKube';
import { reconcileHint } from './trackCommandLine';
import { type TrackOptions, trackManifest } from './trackManifest';
import { readyOf, reconciledAt, waitForTrack } from './waitForReconcile';

/** The field manager of what the CLI applies with the user's identity. */
export const cliFieldManager = 'lightkeeper-cli';

interface CreateOptions extends TrackOptions {
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
        ? 'Secret of the namespace with the credentials (key token, or username + password)'
        : 'NAMESPACE/NAME of the Secret with the credentials (key token, or username + password)',
    )
    .addOption(
      new Option('--auth-type <type>', 'how the Secret is used (with --secret-ref)').choices([
        'token',
        'basic',
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
      const namespace = kind === 'GitTrack' ? (opts.namespace ?? contextNamespace()) : undefined;
      const manifest = trackManifest(kind, name, namespace, opts);
      // --export reads no cluster: the YAML goes to a repository or to `kubectl apply -f -`.
      if (opts.export) return void process.stdout.write(`---\n${stringify(manifest)}`);
      await withUserClient((client) => createTrack(client, { kind, name, namespace }, manifest, opts));
    });
}

async function createTrack(
  client: KubeClient,
  ref: TrackRef,
  manifest: ReturnType<typeof trackManifest>,
  opts: CreateOptions,
): Promise<void> {
  const timeoutMs = parseDuration(opts.timeout, '--timeout');
  const label = trackLabel(ref);
  const existing = await client.find<TrackObject>(trackPath(ref));
  const changed = existing && changedFields(existing.spec, manifest.spec);
  if (changed?.length && !opts.overwrite)
    throw new ConfigError(`${label} exists and this would change its ${changed.join(', ')}`, {
      subject: label,
      hint: 'pass --overwrite to change it (its next reconcile applies the new source and prunes what left it), or choose another name',
    });
  const { status, body } = await client.exchange<TrackObject>('PATCH', trackPath(ref), {
    body: manifest,
    contentType: 'application/apply-patch+yaml',
    query: { fieldManager: cliFieldManager, force: true },
    subject: label,
  });
  const say = (line: string) => process.stderr.write(`[lightkeeper] ${line}\n`);
  console.log(`${status === 201 ? 'created' : changed?.length ? 'configured' : 'unchanged'} ${label}`);
  if (!opts.wait) return;
  const generation = body.metadata.generation ?? 1;
  say(
    `waiting for its first reconcile (up to ${opts.timeout}): the every-minute check of new and changed tracks runs it`,
  );
  const track = await waitForTrack(client, ref, (t) => reconciledAt(t, generation), {
    timeoutMs,
    onProgress: say,
    reconcileNow: reconcileHint(ref),
  });
  const ready = readyOf(track);
  const message = (ready?.message ?? '').split('\n')[0];
  console.log(`Ready ${ready?.status} ${ready?.reason}: ${message}`);
  if (ready?.status !== 'True') process.exitCode = 1;
}

/** The spec fields `create` sets, with the value the CRD defaults each to when it is left out. */
const createdFields: Record<string, unknown> = {
  repository: undefined,
  reference: undefined,
  subPath: undefined,
  auth: undefined,
  serviceAccountName: undefined,
  defaultNamespace: undefined,
  healthTimeout: undefined,
  deletionPolicy: undefined,
  prune: true,
  suspend: false,
};

/** The spec fields the apply would change on an existing track. */
function changedFields(live: Record<string, unknown>, wanted: Record<string, unknown>): string[] {
  const value = (spec: Record<string, unknown>, k: string) => JSON.stringify(spec[k] ?? createdFields[k]);
  return Object.keys(createdFields)
    .filter((k) => value(live, k) !== value(wanted, k))
    .map((k) => `spec.${k}`);
}
