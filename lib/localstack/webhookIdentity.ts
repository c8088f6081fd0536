import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { applyFile } from '../kube/applyFile';
import type { KubeClient } from '../kube/kubeClient';
import { requestServiceAccountToken } from '../kube/serviceAccountToken';
import { tokenKubeconfig } from '../kube/tokenKubeconfig';

/** The RBAC of the webhook function: may only get, list and watch GitTracks and ClusterGitTracks. */
export const webhookRbacFile = fileURLToPath(new URL('../../infra/rbac/webhook.yaml', import.meta.url));

/** The ServiceAccount `webhookRbacFile` binds. */
export const webhookServiceAccount = {
  namespace: 'lightkeeper-system',
  name: 'lightkeeper-webhook',
} as const;

export const webhookUser = `system:serviceaccount:${webhookServiceAccount.namespace}:${webhookServiceAccount.name}`;

export interface WebhookIdentity {
  /** Path of a kubeconfig holding only the ServiceAccount's token. */
  kubeconfig: string;
  user: string;
  expires: Date;
}

/**
 * What a deployment does by hand (see `webhookRbacFile`), for the local stack and the tests:
 * applies the webhook's RBAC to the cluster `client` (admin) reaches, mints a token of its
 * ServiceAccount and writes `dir/webhook-kubeconfig` with that token as its only credential.
 */
export async function provisionWebhookIdentity(
  client: KubeClient,
  adminKubeconfig: string,
  dir: string,
  expirationSeconds = 24 * 3600,
): Promise<WebhookIdentity> {
  await applyFile(client, webhookRbacFile);
  const { token, expires } = await requestServiceAccountToken(
    client,
    webhookServiceAccount,
    expirationSeconds,
  );
  const base = new KubeConfig();
  base.loadFromFile(adminKubeconfig);
  const kubeconfig = join(dir, 'webhook-kubeconfig');
  writeFileSync(kubeconfig, tokenKubeconfig(base, webhookServiceAccount.name, token), { mode: 0o600 });
  return { kubeconfig, user: webhookUser, expires };
}
