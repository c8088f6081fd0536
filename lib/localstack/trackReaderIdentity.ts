import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { applyFile } from '../kube/applyFile';
import type { KubeClient } from '../kube/kubeClient';
import { requestServiceAccountToken } from '../kube/serviceAccountToken';
import { tokenKubeconfig } from '../kube/tokenKubeconfig';

/** A function identity that may only read tracks: its RBAC file and the ServiceAccount it binds. */
export interface TrackReader {
  rbacFile: string;
  serviceAccount: { namespace: string; name: string };
}

export interface TrackReaderIdentity {
  /** Path of a kubeconfig holding only the ServiceAccount's token. */
  kubeconfig: string;
  user: string;
  expires: Date;
}

/**
 * What a deployment does by hand for a function that only reads tracks (the webhook's
 * infra/rbac/webhook.yaml, the sweep's infra/rbac/sweep.yaml), for the local stack and the tests:
 * applies its RBAC to the cluster `client` (admin) reaches, mints a token of its ServiceAccount and
 * writes `dir/<ServiceAccount name>-kubeconfig` with that token as its only credential.
 */
export async function provisionTrackReader(
  client: KubeClient,
  reader: TrackReader,
  adminKubeconfig: string,
  dir: string,
  expirationSeconds = 24 * 3600,
): Promise<TrackReaderIdentity> {
  await applyFile(client, reader.rbacFile);
  const kubeconfig = join(dir, `${reader.serviceAccount.name}-kubeconfig`);
  return writeServiceAccountKubeconfig(
    client,
    reader.serviceAccount,
    adminKubeconfig,
    kubeconfig,
    expirationSeconds,
  );
}

/**
 * Mints a token of `account` (TokenRequest) and writes `path`: a kubeconfig of the admin
 * kubeconfig's cluster holding that token as its only credential.
 */
export async function writeServiceAccountKubeconfig(
  client: KubeClient,
  account: { namespace: string; name: string },
  adminKubeconfig: string,
  path: string,
  expirationSeconds = 24 * 3600,
): Promise<TrackReaderIdentity> {
  const { token, expires } = await requestServiceAccountToken(client, account, expirationSeconds);
  const base = new KubeConfig();
  base.loadFromFile(adminKubeconfig);
  writeFileSync(path, tokenKubeconfig(base, account.name, token), { mode: 0o600 });
  return { kubeconfig: path, user: `system:serviceaccount:${account.namespace}:${account.name}`, expires };
}
