import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { RequestPolicy } from '../kube/requestPolicy';
import type { Telemetry } from '../observability/telemetry';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { webhookSecrets } from '../settings/functionSettings';
import { deliveryResponse } from '../webhook/deliveryResponse';
import { type Delivery, handleDelivery } from '../webhook/handleDelivery';
import { listTracks } from '../webhook/listTracks';
import { startReconcile } from './invokeReconcile';
import { kubeClientFrom } from './kubeClientCache';
import type { LambdaClientSource } from './lazyLambdaClient';

/** The part of the webhook function's settings a delivery uses (lib/config/webhookConfig.ts). */
export interface WebhookSettings {
  deployment: DeploymentConfig;
  sources: Readonly<Record<string, string | undefined>>;
  requestPolicy: RequestPolicy;
  maxBodyBytes: number;
  reconcileFunction: string;
}

/** One delivery: verify, match, start reconciles; the answer, its logs and metrics recorded. */
export async function webhookInvocation(
  deps: { settings: WebhookSettings; lambda: LambdaClientSource; telemetry: Telemetry },
  delivery: Delivery,
  context: object,
): Promise<{ status: number; body: object }> {
  const { settings, lambda, telemetry } = deps;
  const { deployment: config, sources } = settings;
  const secrets = webhookSecrets(context, sources);
  if (secrets.length === 0) {
    telemetry.logger.error('refusing delivery: no webhook secret configured');
    return { status: 500, body: { error: 'webhook secret not configured' } };
  }
  const result = await handleDelivery(delivery, {
    secrets,
    maxBodyBytes: settings.maxBodyBytes,
    config,
    // Its own identity, which may only read tracks: never the reconcile function's kubeconfig.
    listTracks: async () =>
      listTracks(await kubeClientFrom('webhookKubeconfig', context, sources, settings.requestPolicy), config),
    trigger: (reconcile) => startReconcile(lambda, settings.reconcileFunction, reconcile),
  });
  telemetry.metrics.addMetric(`delivery_${result.outcome}`, MetricUnit.Count, 1);
  const response = deliveryResponse(result);
  for (const { level, message, fields } of response.logs) telemetry.logger[level](message, fields);
  if (result.outcome === 'triggered')
    telemetry.metrics.addMetric('reconcilesTriggered', MetricUnit.Count, response.reconcilesTriggered);
  return { status: response.status, body: response.body };
}
