import { ConfigError, isKubeApiError } from '../errors';
import type { GitAuth } from '../git';
import { githubAppToken } from '../git/githubAppToken';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { TrackObject } from './trackObject';

/**
 * Credentials from the track's Secret: `token`, `username` + `password`, or a GitHub App in Flux's
 * keys (`githubAppID`, `githubAppInstallationID`, `githubAppPrivateKey`, optional
 * `githubAppBaseURL`), exchanged for an installation token sent as `x-access-token`. `client` acts as the
 * track's identity (lib/identity): a GitTrack reads only Secrets its service account may read.
 */
export async function readGitAuth(client: KubeClient, track: TrackObject): Promise<GitAuth | undefined> {
  const auth = track.spec.auth;
  if (!auth) return undefined;
  const namespace = track.kind === 'GitTrack' ? track.metadata.namespace : auth.secretRef.namespace;
  const where = `Secret ${namespace}/${auth.secretRef.name}`;
  let secret: { data?: Record<string, string> } | undefined;
  try {
    secret = await client.find(
      resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace, name: auth.secretRef.name }),
      { subject: where },
    );
  } catch (e) {
    if (!isKubeApiError(e)) throw e;
    throw new ConfigError(
      `${where} (spec.auth.secretRef) could not be read: ${e.reason ?? e.status}: ${e.message}`,
      {
        subject: where,
        cause: e,
      },
    );
  }
  if (!secret) throw new ConfigError(`${where} (spec.auth.secretRef) not found`, { subject: where });
  const key = (k: string) => {
    const v = secret.data?.[k];
    if (!v)
      throw new ConfigError(`${where} has no key ${k}, needed for auth type ${auth.type}`, {
        subject: where,
      });
    return Buffer.from(v, 'base64').toString('utf8');
  };
  if (auth.type === 'token') return { type: 'token', token: key('token') };
  if (auth.type === 'basic') return { type: 'basic', username: key('username'), password: key('password') };
  const baseUrl = secret.data?.githubAppBaseURL;
  const app = {
    appId: key('githubAppID').trim(),
    installationId: key('githubAppInstallationID').trim(),
    privateKey: key('githubAppPrivateKey'),
    baseUrl: baseUrl ? Buffer.from(baseUrl, 'base64').toString('utf8').trim() : undefined,
  };
  const scope = { identity: `${client.server} ${client.actingAs} ${where}`, subject: where };
  return { type: 'token', ...(await githubAppToken(app, scope)) };
}
