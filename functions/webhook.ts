import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import ssm from '@middy/ssm';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loadWebhookConfig } from '../lib/config/webhookConfig';
import { isInfrastructureError } from '../lib/errors';
import { hasSource, ssmFetchData, webhookSecrets } from '../lib/lambda/functionSettings';
import { startReconcile } from '../lib/lambda/invokeReconcile';
import { kubeClientFrom } from '../lib/lambda/kubeClientCache';
import { createLambdaClient } from '../lib/lambda/lambdaClient';
import { ssmParameterError } from '../lib/lambda/ssmParameterError';
import { createTelemetry } from '../lib/observability/telemetry';
import { deliveryResponse } from '../lib/webhook/deliveryResponse';
import { handleDelivery } from '../lib/webhook/handleDelivery';
import { listTracks } from '../lib/webhook/listTracks';

// POST /webhook (API Gateway HTTP API, payload v2): verify, match, start reconciles, answer at once.

const { logger, metrics } = createTelemetry('webhook');
const settings = loadWebhookConfig();
const { deployment: config, sources, requestPolicy } = settings;
const lambda = createLambdaClient(settings.lambda);
const fetchData = ssmFetchData(['webhookSecret', 'previousWebhookSecret', 'webhookKubeconfig'], sources);
if (!hasSource('webhookSecret', sources)) {
  logger.error(
    'no webhook secret configured (WEBHOOK_SECRET or WEBHOOK_SECRET_SSM_PARAMETER): answering 500',
  );
}
if (!hasSource('webhookKubeconfig', sources)) {
  logger.error(
    'no webhook kubeconfig configured (WEBHOOK_KUBECONFIG or WEBHOOK_KUBECONFIG_SSM_PARAMETER; the reconcile function’s KUBECONFIG is never used): pushes answer 500',
  );
}

type Response = APIGatewayProxyStructuredResultV2;
const respond = (statusCode: number, body: object): Response => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function webhook(event: APIGatewayProxyEventV2, context: Context): Promise<Response> {
  const secrets = webhookSecrets(context, sources);
  if (secrets.length === 0) {
    logger.error('refusing delivery: no webhook secret configured');
    return respond(500, { error: 'webhook secret not configured' });
  }
  const result = await handleDelivery(
    { headers: event.headers ?? {}, body: event.body, isBase64Encoded: event.isBase64Encoded },
    {
      secrets,
      maxBodyBytes: settings.maxBodyBytes,
      config,
      // Its own identity, which may only read tracks: never the reconcile function's kubeconfig.
      listTracks: async () =>
        listTracks(await kubeClientFrom('webhookKubeconfig', context, sources, requestPolicy), config),
      trigger: (reconcile) => startReconcile(lambda, settings.reconcileFunction, reconcile),
    },
  );
  metrics.addMetric(`delivery_${result.outcome}`, MetricUnit.Count, 1);
  const response = deliveryResponse(result);
  for (const { level, message, fields } of response.logs) logger[level](message, fields);
  if (result.outcome === 'triggered')
    metrics.addMetric('reconcilesTriggered', MetricUnit.Count, response.reconcilesTriggered);
  return respond(response.status, response.body);
}

const middleware = middy<APIGatewayProxyEventV2, Response>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
// Fetched at cold start and refreshed every 5 minutes, so a rotated secret reaches warm containers.
if (Object.keys(fetchData).length > 0)
  middleware.use(ssm({ fetchData, setToContext: true, cacheExpiry: settings.ssmCacheExpiryMs }));

export const handler = middleware.handler(webhook).onError(async (request) => {
  const unreadable = ssmParameterError(request.error);
  if (unreadable) {
    // Which parameter goes to the log only: the answer faces the internet.
    logger.error(`refusing delivery: ${unreadable.message}`, { hint: unreadable.hint });
    request.response = respond(500, { error: 'webhook configuration unavailable' });
    return;
  }
  logger.error('webhook failed', { error: request.error });
  request.response = isInfrastructureError(request.error)
    ? respond(503, { error: 'the Kubernetes API server is unavailable; redeliver later' })
    : respond(500, { error: 'internal error' });
});
