import { isKubeApiError } from '../errors';
import type { KubeClient } from './kubeClient';

/**
 * The user name the API server knows this client by (a SelfSubjectReview), or undefined when the
 * server will not say; used to record who pinned a track.
 */
export async function whoAmI(client: KubeClient): Promise<string | undefined> {
  try {
    const review = await client.request<{ status?: { userInfo?: { username?: string } } }>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    );
    return review.status?.userInfo?.username || undefined;
  } catch (e) {
    if (isKubeApiError(e)) return undefined;
    throw e;
  }
}
