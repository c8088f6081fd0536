import { Command } from 'commander';
import { ConfigError, isKubeApiError, TrackNotFoundError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { trackPath } from '../track/loadTrack';
import { reconcileHint, trackArgOf } from '../track/trackCommandLine';
import type { TrackKind, TrackRef } from '../track/trackRef';
import { trackLabel } from '../track/trackRef';
import { contextNamespace, withUserClient } from './cliKube';

/**
 * Sets spec.suspend, as the caller (a change to the track's spec, like a pin): a suspended track is
 * left alone by the sweeps and pushes until resumed; a named commit still replays.
 */
export async function setSuspend(client: KubeClient, ref: TrackRef, suspend: boolean): Promise<boolean> {
  const label = trackLabel(ref);
  try {
    const before = await client.get<{ spec?: { suspend?: boolean } }>(trackPath(ref), { subject: label });
    if ((before.spec?.suspend === true) === suspend) return false;
    await client.request('PATCH', trackPath(ref), {
      body: { spec: { suspend } },
      contentType: 'application/merge-patch+json',
      subject: label,
    });
    return true;
  } catch (e) {
    if (isKubeApiError(e) && e.status === 404)
      throw new TrackNotFoundError(`${label} not found`, { subject: label });
    if (!isKubeApiError(e) || e.status !== 403) throw e;
    throw new ConfigError(
      `${suspend ? 'suspending' : 'resuming'} ${label} needs the right to patch it: ${e.message}`,
      {
        subject: label,
        cause: e,
        hint: 'ask for edit on the track',
      },
    );
  }
}

/** `lightkeeper suspend|resume gittrack|clustergittrack NAME`. */
export function suspendCommandOf(verb: 'suspend' | 'resume'): Command {
  const command = new Command(verb).description(
    verb === 'suspend'
      ? 'stop a track following its reference: sweeps and pushes leave it alone until resumed'
      : 'let a suspended track follow its reference again',
  );
  for (const kind of ['GitTrack', 'ClusterGitTrack'] as const satisfies TrackKind[]) {
    const sub = new Command(kind.toLowerCase())
      .alias(kind === 'GitTrack' ? 'gt' : 'cgt')
      .description(`${verb} a ${kind}`)
      .argument('<name>', `name of the ${kind}`);
    if (kind === 'GitTrack')
      sub.option('-n, --namespace <namespace>', 'namespace of the GitTrack (default: the context’s)');
    sub.action(async (name: string, opts: { namespace?: string }) => {
      const ref: TrackRef = {
        kind,
        name,
        ...(kind === 'GitTrack' ? { namespace: opts.namespace ?? (await contextNamespace()) } : {}),
      };
      const changed = await withUserClient((client) => setSuspend(client, ref, verb === 'suspend'));
      const label = trackLabel(ref);
      if (!changed)
        return void console.log(`${label} is ${verb === 'suspend' ? 'suspended' : 'not suspended'} already`);
      console.log(
        verb === 'suspend'
          ? `suspended ${label}: sweeps and pushes leave it alone (a replay of a named commit still runs); \`lightkeeper resume ${trackArgOf(ref).replace('/', ' ')}\` undoes it`
          : `resumed ${label}: the check of changed tracks reconciles it within a minute (a deployment's, or a running \`npm start\`'s; a \`cluster up\` plane runs none), or now with \`${reconcileHint(ref)}\``,
      );
    });
    command.addCommand(sub);
  }
  return command;
}
