import { join } from 'node:path';
import type { ControlPlaneState } from './state';

// Command lines of the three components. Everything listens on 127.0.0.1 only, and
// addresses are explicit: auto-detection fails on machines without a default route.

export const files = (dir: string) => ({
  etcdData: join(dir, 'etcd'),
  caCert: join(dir, 'pki', 'ca.crt'),
  apiserverCert: join(dir, 'pki', 'apiserver.crt'),
  apiserverKey: join(dir, 'pki', 'apiserver.key'),
  adminCert: join(dir, 'pki', 'admin.crt'),
  adminKey: join(dir, 'pki', 'admin.key'),
  adminToken: join(dir, 'pki', 'tokens.csv'),
  saPublic: join(dir, 'pki', 'sa.pub'),
  saPrivate: join(dir, 'pki', 'sa.key'),
  log: (name: string) => join(dir, 'logs', `${name}.log`),
});

export function etcdArgs(s: ControlPlaneState): string[] {
  const client = `http://127.0.0.1:${s.ports.etcdClient}`;
  const peer = `http://127.0.0.1:${s.ports.etcdPeer}`;
  return [
    '--name=lightkeeper',
    `--data-dir=${files(s.dir).etcdData}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=lightkeeper=${peer}`,
    '--listen-metrics-urls=',
    // A throwaway local store: durability across power loss buys nothing here.
    '--unsafe-no-fsync',
    '--log-level=warn',
  ];
}

export function apiserverArgs(s: ControlPlaneState): string[] {
  const f = files(s.dir);
  return [
    `--etcd-servers=http://127.0.0.1:${s.ports.etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${s.ports.apiserver}`,
    `--tls-cert-file=${f.apiserverCert}`,
    `--tls-private-key-file=${f.apiserverKey}`,
    `--client-ca-file=${f.caCert}`,
    `--token-auth-file=${f.adminToken}`,
    '--authorization-mode=RBAC',
    `--service-account-key-file=${f.saPublic}`,
    `--service-account-signing-key-file=${f.saPrivate}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    '--api-audiences=https://kubernetes.default.svc',
    '--service-cluster-ip-range=10.96.0.0/16',
    '--endpoint-reconciler-type=none',
    // API Priority and Fairness on, as in every real cluster: infra/flowcontrol/lightkeeper.yaml is
    // tested against it (test/integration/identity/flowControl.test.ts).
    '--enable-priority-and-fairness=true',
    `--cert-dir=${join(s.dir, 'pki')}`,
  ];
}

export function controllerManagerArgs(s: ControlPlaneState): string[] {
  return [
    `--kubeconfig=${s.kubeconfig}`,
    `--authentication-kubeconfig=${s.kubeconfig}`,
    `--authorization-kubeconfig=${s.kubeconfig}`,
    // Only what lightkeeper's guarantees depend on: the garbage collector; namespace deletion
    // (which empties a namespace so tests can clean up); the `default` ServiceAccount of each
    // namespace; the aggregated ClusterRoles (`admin`, `edit`, `view`) tenants are bound to; and the
    // Deployment and ReplicaSet controllers, whose rollout status health assessment reads (with no
    // scheduler or kubelet, their Pods stay Pending: a Deployment of 0 replicas becomes available,
    // one of 1 never does).
    '--controllers=garbage-collector-controller,namespace-controller,serviceaccount-controller,clusterrole-aggregation-controller,deployment-controller,replicaset-controller',
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${s.ports.controllerManager}`,
    `--cert-dir=${join(s.dir, 'pki', 'kcm')}`,
    '--use-service-account-credentials=false',
  ];
}
