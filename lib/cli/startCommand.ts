import { once } from 'node:events';
import { Command } from 'commander';
import { ControlPlane } from '../controlplane/controlPlane';
import { installLightkeeperCrds } from '../kube/crds';
import { KubeClient } from '../kube/kubeClient';

const say = (line: string) => console.error(`[lightkeeper] ${line}`);

/** The embedded default behind `npm start`: a local control plane unless KUBECONFIG names a cluster. */
export function startCommand(): Command {
  return new Command('start')
    .description('run lightkeeper locally: control plane (unless KUBECONFIG is set) and CRDs, until Ctrl-C')
    .action(async () => {
      const plane = process.env.KUBECONFIG ? undefined : await ControlPlane.start({ log: say });
      const kubeconfig = plane?.kubeconfig ?? process.env.KUBECONFIG;
      const client = await KubeClient.fromFile(kubeconfig);
      try {
        const crds = await installLightkeeperCrds(client);
        say(`installed ${crds.join(', ')}`);
        say(`kubeconfig: ${kubeconfig}`);
        say(`try: KUBECONFIG=${kubeconfig} ${plane?.kubectl ?? 'kubectl'} get lightkeeper -A`);
        say('running; Ctrl-C stops everything');
        await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      } finally {
        await client.close();
        if (plane) {
          say('stopping the control plane');
          await plane.stop();
        }
      }
    });
}
