import type { KubeClient } from './kubeClient';
import { type ResourcePath, resourcePath } from './paths';

export const fieldManager = 'lightkeeper';

/**
 * What the server does with a field its schema does not know: drops it, as its default (`Warn`)
 * does, without looking for fields to warn about, since no one reads the warnings. The search cost
 * a dry-run of the benchmark's mix of kinds about a fifth of its time, a ConfigMap's a few percent
 * (docs/benchmarks.md).
 */
export const fieldValidation = 'Ignore';

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
      query: { fieldManager, fieldValidation, force: true, dryRun: options.dryRun ? 'All' : undefined },
      subject: options.subject,
    },
  );
  return { object, created: status === 201 };
}
