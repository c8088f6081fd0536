import { ControlPlane } from '../controlplane/controlPlane';
import { describeStartedBy, startUsing } from '../controlplane/startedBy';
import { ControlPlaneError } from '../errors';
import { installLightkeeperCrds } from '../kube/crds';
import { kubeClientFromFile } from '../kube/loadKubeConfig';

// What `lightkeeper cluster …` does, apart from its definition (clusterCommand.ts), so that
// defining the command (for `completion`) does not load the control plane's PKI libraries.

const say = (line: string) => console.error(`[cluster] ${line}`);

function attached(dir: string): ControlPlane {
  const plane = ControlPlane.attach(dir);
  if (!plane)
    throw new ControlPlaneError(
      `no control plane recorded in ${dir}; \`lightkeeper cluster up\` starts one (\`npm start\` starts one there too)`,
      { subject: dir },
    );
  return plane;
}

/** Refuses to start a second control plane over a running one, and says how to use that one. */
function refuseRunning(dir: string): void {
  const plane = ControlPlane.attach(dir);
  if (!plane || !Object.values(plane.status()).some((s) => s.running)) return;
  throw new ControlPlaneError(
    `a control plane is already running in ${dir}, ${describeStartedBy(plane)}; use it: export KUBECONFIG=${plane.kubeconfig}`,
    { subject: dir },
  );
}

export async function clusterUp(dir: string): Promise<void> {
  const started = Date.now();
  refuseRunning(dir);
  const plane = await ControlPlane.start({
    dir,
    log: say,
    startedBy: { command: 'lightkeeper cluster up', pid: process.pid },
  });
  const client = await kubeClientFromFile(plane.kubeconfig);
  try {
    await installLightkeeperCrds(client);
  } finally {
    await client.close();
  }
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s at ${plane.server}`);
  say(`kubectl: ${plane.kubectl}`);
  console.log(`export KUBECONFIG=${plane.kubeconfig}`);
}

export async function clusterDown(dir: string): Promise<void> {
  await attached(dir).stop();
  say('stopped');
}

export function clusterStatus(dir: string): void {
  const plane = attached(dir);
  const status = plane.status();
  for (const [name, s] of Object.entries(status))
    console.log(`${name.padEnd(18)} ${s.running ? `running (pid ${s.pid})` : 'stopped'}`);
  console.log(`kubeconfig         ${plane.kubeconfig}`);
  console.log(`started            ${plane.startedAt}, ${describeStartedBy(plane)}`);
  const user = startUsing(dir);
  if (user !== undefined) console.log(`used by            \`lightkeeper start\` (npm start, pid ${user})`);
  if (!Object.values(status).every((s) => s.running)) process.exitCode = 1;
}

export async function clusterRestartGc(dir: string): Promise<void> {
  const ms = await attached(dir).restartGarbageCollector();
  say(`garbage collector synced ${ms} ms after the controller-manager started`);
}
