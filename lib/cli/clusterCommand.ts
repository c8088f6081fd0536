import { Command } from 'commander';
import { localControlPlaneDir } from '../settings/cacheDir';

const actions = () => import('./clusterActions');

export function clusterCommand(): Command {
  const cluster = new Command('cluster').description(
    'a local control plane: etcd, kube-apiserver, garbage collector',
  );
  const dirOption = ['--dir <dir>', 'state directory', localControlPlaneDir()] as const;

  cluster
    .command('up')
    .description(
      'build (when missing) and start the control plane, install the CRDs, print the kubeconfig path',
    )
    .option(...dirOption)
    .action(async ({ dir }: { dir: string }) => (await actions()).clusterUp(dir));

  cluster
    .command('down')
    .description('stop every component and remove the state directory')
    .option(...dirOption)
    .action(async ({ dir }: { dir: string }) => (await actions()).clusterDown(dir));

  cluster
    .command('status')
    .description('which components are running')
    .option(...dirOption)
    .action(async ({ dir }: { dir: string }) => (await actions()).clusterStatus(dir));

  cluster
    .command('restart-gc')
    .description('restart kube-controller-manager and wait until its garbage collector has synced')
    .option(...dirOption)
    .action(async ({ dir }: { dir: string }) => (await actions()).clusterRestartGc(dir));

  return cluster;
}
