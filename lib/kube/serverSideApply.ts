import type { KubeClient } from './kubeClient';
import { type ResourcePath, resourcePath } from './paths';

export const fieldManager = 'lightkeeper';

/**
 * One server-side apply: PATCH with `application/apply-patch+yaml` (JSON is YAML), our field
 * manager, forced. The body is the raw object, so every field reaches the server as written.
 */
export async function serverSideApply<T = unknown>(
  client: KubeClient,
  target: ResourcePath & { name: string },
  body: unknown,
  options: { subject?: string; dryRun?: boolean; subresource?: string } = {},
): Promise<{ object: T; created: boolean }> {
  const { status, body: object } = await client.exchange<T>(
    'PATCH',
    resourcePath({ ...target, subresource: options.subresource }),
    {
      body,
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager, force: true, dryRun: options.dryRun ? 'All' : undefined },
      subject: options.subject,
    },
  );
  return { object, created: status === 201 };
}
