import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlaneError } from '../errors';
import { kubeClientFromFile } from '../kube/loadKubeConfig';
import { ensureControlPlaneBinaries } from './binaries';
import { apiserverArgs, controllerManagerArgs, etcdArgs, files } from './flags';
import { waitForGarbageCollector } from './gcSync';
import { waitForHttpOk } from './health';
import { adminKubeconfig, adminToken } from './kubeconfig';
import { generatePki } from './pki';
import { freeLoopbackPort } from './ports';
import { isAlive, logTail, startDetached, stopProcess } from './processes';
import { type ControlPlaneState, readState, writeState } from './state';

export interface StartOptions {
  /** Where state, certificates, etcd data and logs live; a new temp dir by default. Removed on stop when created here. */
  dir?: string;
  log?: (line: string) => void;
  /** Recorded in the state, so `lightkeeper cluster status` can say who runs it. */
  startedBy?: { command: string; pid: number };
}

type Component = 'etcd' | 'apiserver' | 'controllerManager';
const binaryOf: Record<Component, string> = {
  etcd: 'etcd',
  apiserver: 'kube-apiserver',
  controllerManager: 'kube-controller-manager',
};

/**
 * A real local control plane: etcd, kube-apiserver and a kube-controller-manager running the
 * garbage collector, all on loopback. Processes are detached and recorded in `state.json`, so
 * the process that started it may exit and any other process can attach to restart or stop it.
 */
export class ControlPlane {
  private constructor(private state: ControlPlaneState) {}

  get kubeconfig() {
    return this.state.kubeconfig;
  }
  get dir() {
    return this.state.dir;
  }
  get server() {
    return this.state.server;
  }
  get kubectl() {
    return join(this.state.binDir, 'kubectl');
  }
  get startedBy() {
    return this.state.startedBy;
  }
  get startedAt() {
    return this.state.startedAt;
  }

  static attach(dir: string): ControlPlane | undefined {
    const state = readState(dir);
    return state ? new ControlPlane(state) : undefined;
  }

  static async start(options: StartOptions = {}): Promise<ControlPlane> {
    const log = options.log ?? (() => {});
    const binDir = await ensureControlPlaneBinaries();
    const ownsDir = !options.dir || !existsSync(options.dir);
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lightkeeper-cp-'));
    const existing = readState(dir);
    if (existing && Object.values(existing.pids).some(isAlive)) {
      throw new ControlPlaneError(`a control plane is already running from ${dir}; stop it first`, {
        subject: dir,
      });
    }
    mkdirSync(join(dir, 'pki', 'kcm'), { recursive: true });
    mkdirSync(join(dir, 'logs'), { recursive: true });
    const ports = {
      etcdClient: await freeLoopbackPort(),
      etcdPeer: await freeLoopbackPort(),
      apiserver: await freeLoopbackPort(),
      controllerManager: await freeLoopbackPort(),
    };
    const server = `https://127.0.0.1:${ports.apiserver}`;
    const kubeconfig = join(dir, 'kubeconfig');
    const plane = new ControlPlane({
      dir,
      binDir,
      ownsDir,
      kubeconfig,
      server,
      ports,
      pids: {},
      startedAt: new Date().toISOString(),
      ...(options.startedBy ? { startedBy: options.startedBy } : {}),
    });
    try {
      const pki = await generatePki();
      const f = files(dir);
      const secret = { mode: 0o600 };
      writeFileSync(f.caCert, pki.ca.cert);
      writeFileSync(f.apiserverCert, pki.apiserver.cert);
      writeFileSync(f.apiserverKey, pki.apiserver.key, secret);
      writeFileSync(f.adminCert, pki.admin.cert);
      writeFileSync(f.adminKey, pki.admin.key, secret);
      writeFileSync(f.saPublic, pki.serviceAccount.publicKey);
      writeFileSync(f.saPrivate, pki.serviceAccount.privateKey, secret);
      const admin = adminToken();
      writeFileSync(f.adminToken, admin.tokenFileLine, secret);
      writeFileSync(kubeconfig, adminKubeconfig(server, pki.ca.cert, admin.token), secret);

      log(`starting etcd on 127.0.0.1:${ports.etcdClient}`);
      plane.launch('etcd', etcdArgs(plane.state));
      await plane.waitHealthy('etcd', `http://127.0.0.1:${ports.etcdClient}/health`, 30_000);

      log(`starting kube-apiserver on ${server}`);
      plane.launch('apiserver', apiserverArgs(plane.state));
      const tls = { ca: pki.ca.cert, cert: pki.admin.cert, key: pki.admin.key };
      await plane.waitHealthy('apiserver', `${server}/readyz`, 120_000, tls);

      log(
        'starting kube-controller-manager (garbage collector; namespace, service-account, role-aggregation, deployment and replica-set controllers)',
      );
      await plane.startControllerManager();
      return plane;
    } catch (e) {
      await plane.stop();
      throw e;
    }
  }

  /** Starts the controller-manager and waits until its garbage collector is collecting. */
  async startControllerManager(): Promise<number> {
    this.launch('controllerManager', controllerManagerArgs(this.state));
    const client = await kubeClientFromFile(this.state.kubeconfig);
    try {
      return await waitForGarbageCollector(client);
    } catch (e) {
      throw new ControlPlaneError(
        `${(e as Error).message}\n${logTail(files(this.dir).log('controllerManager'))}`,
        { subject: 'kube-controller-manager', cause: e },
      );
    } finally {
      await client.close();
    }
  }

  async stopControllerManager(): Promise<void> {
    await this.stopComponent('controllerManager');
  }

  /** What an etcd leader change did in the incident: the collector's graph rebuilt from empty. */
  async restartGarbageCollector(): Promise<number> {
    await this.stopControllerManager();
    return this.startControllerManager();
  }

  status(): Record<Component, { pid: number | undefined; running: boolean }> {
    this.reload();
    const entry = (c: Component) => ({ pid: this.state.pids[c], running: isAlive(this.state.pids[c]) });
    return {
      etcd: entry('etcd'),
      apiserver: entry('apiserver'),
      controllerManager: entry('controllerManager'),
    };
  }

  /** Stops every component (controller-manager first, etcd last) and removes a dir we created. */
  async stop(): Promise<void> {
    this.reload();
    for (const c of ['controllerManager', 'apiserver', 'etcd'] as const) await this.stopComponent(c);
    if (this.state.ownsDir) rmSync(this.state.dir, { recursive: true, force: true });
  }

  private launch(component: Component, args: string[]): void {
    const pid = startDetached(
      join(this.state.binDir, binaryOf[component]),
      args,
      files(this.dir).log(component),
    );
    this.reload();
    this.state.pids[component] = pid;
    writeState(this.state);
  }

  private async stopComponent(component: Component): Promise<void> {
    this.reload();
    await stopProcess(this.state.pids[component]);
    delete this.state.pids[component];
    if (readState(this.dir)) writeState(this.state);
  }

  private waitHealthy(
    component: Component,
    url: string,
    timeoutMs: number,
    tls?: Parameters<typeof waitForHttpOk>[1]['tls'],
  ) {
    return waitForHttpOk(url, {
      tls,
      timeoutMs,
      what: binaryOf[component],
      alive: () => isAlive(this.state.pids[component]),
      diagnose: () => logTail(files(this.dir).log(component)),
    });
  }

  /** Another process (a test worker) may have restarted a component since we read the state. */
  private reload(): void {
    const current = readState(this.state.dir);
    if (current) this.state = current;
  }
}
