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
  const { serviceAccount } = reader;
  await applyFile(client, reader.rbacFile);
  const { token, expires } = await requestServiceAccountToken(client, serviceAccount, expirationSeconds);
  const base = new KubeConfig();
  base.loadFromFile(adminKubeconfig);
  const kubeconfig = join(dir, `${serviceAccount.name}-kubeconfig`);
  writeFileSync(kubeconfig, tokenKubeconfig(base, serviceAccount.name, token), { mode: 0o600 });
  return {
    kubeconfig,
    user: `system:serviceaccount:${serviceAccount.namespace}:${serviceAccount.name}`,
    expires,
  };
}
