import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import ssm from '@middy/ssm';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loadDeploymentConfig } from '../lib/config/deploymentModes';
import { isInfrastructureError } from '../lib/errors';
import { requestPolicyFromEnv, shortDeadlinePolicy } from '../lib/kube/requestPolicy';
import { hasSource, ssmFetchData, webhookSecrets } from '../lib/lambda/functionSettings';
import { startReconcile } from '../lib/lambda/invokeReconcile';
import { kubeClientFor } from '../lib/lambda/kubeClientCache';
import { lambdaClientFromEnv } from '../lib/lambda/lambdaClient';
import { createTelemetry } from '../lib/observability/telemetry';
import { type DeliveryResult, defaultMaxBodyBytes, handleDelivery } from '../lib/webhook/handleDelivery';
import { listTracks } from '../lib/webhook/listTracks';
import { formatTrack } from '../lib/webhook/track';

// POST /webhook (API Gateway HTTP API, payload v2): verify, match, start reconciles, answer at once.

const { logger, metrics } = createTelemetry('webhook');
const config = loadDeploymentConfig();
const lambda = lambdaClientFromEnv();
const reconcileFunction = process.env.RECONCILE_FUNCTION_NAME ?? 'lightkeeper-dev-reconcile';
const maxBodyBytes = Number(process.env.WEBHOOK_MAX_BODY_BYTES) || defaultMaxBodyBytes;
const fetchData = ssmFetchData(['webhookSecret', 'previousWebhookSecret', 'kubeconfig']);
// Within the function's 10 s: an unreachable API server answers 503 (GitHub can redeliver).
const requestPolicy = shortDeadlinePolicy(requestPolicyFromEnv());
if (!hasSource('webhookSecret')) {
  logger.error(
    'no webhook secret configured (WEBHOOK_SECRET or WEBHOOK_SECRET_SSM_PARAMETER): answering 500',
  );
}

type Response = APIGatewayProxyStructuredResultV2;
const respond = (statusCode: number, body: object): Response => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function webhook(event: APIGatewayProxyEventV2, context: Context): Promise<Response> {
  const secrets = webhookSecrets(context);
  if (secrets.length === 0) {
    logger.error('refusing delivery: no webhook secret configured');
    return respond(500, { error: 'webhook secret not configured' });
  }
  const result = await handleDelivery(
    { headers: event.headers ?? {}, body: event.body, isBase64Encoded: event.isBase64Encoded },
    {
      secrets,
      maxBodyBytes,
      config,
      listTracks: async () => listTracks(await kubeClientFor(context, process.env, requestPolicy), config),
      trigger: (reconcile) => startReconcile(lambda, reconcileFunction, reconcile),
    },
  );
  metrics.addMetric(`delivery_${result.outcome}`, MetricUnit.Count, 1);
  return toResponse(result);
}

function toResponse(result: DeliveryResult): Response {
  switch (result.outcome) {
    case 'too-large':
      logger.warn('delivery refused', { reason: result.reason });
      return respond(413, { error: result.reason });
    case 'unauthorized':
      logger.warn('delivery refused', { reason: result.reason });
      return respond(401, { error: result.reason });
    case 'malformed':
      logger.warn('delivery refused', { delivery: result.delivery, reason: result.reason });
      return respond(400, { error: result.reason });
    case 'pong':
      return respond(200, { pong: true });
    case 'ignored':
      logger.info('delivery ignored', { delivery: result.delivery, reason: result.reason });
      return respond(202, { ignored: result.reason });
    case 'triggered': {
      const failed = new Set(result.failed.map((f) => f.track));
      const triggered = result.triggered.filter((t) => !failed.has(t)).map(formatTrack);
      const skipped = result.skipped.map((s) => ({ track: formatTrack(s.track), reason: s.reason }));
      const fields = {
        delivery: result.delivery,
        ref: result.push.ref,
        after: result.push.after,
        triggered,
        skipped,
      };
      metrics.addMetric('reconcilesTriggered', MetricUnit.Count, triggered.length);
      if (result.failed.length === 0) {
        logger.info('delivery accepted', fields);
        return respond(202, { triggered, skipped });
      }
      // 500 makes GitHub show the delivery as failed, so it can be redelivered; a repeated
      // reconcile of the same head is harmless.
      for (const f of result.failed)
        logger.error('reconcile not started', { track: formatTrack(f.track), error: f.error });
      return respond(500, {
        error: 'some reconciles could not be started',
        triggered,
        failed: [...failed].map(formatTrack),
      });
    }
  }
}

const middleware = middy<APIGatewayProxyEventV2, Response>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
// Fetched at cold start and refreshed every 5 minutes, so a rotated secret reaches warm containers.
if (Object.keys(fetchData).length > 0)
  middleware.use(ssm({ fetchData, setToContext: true, cacheExpiry: 300_000 }));

export const handler = middleware.handler(webhook).onError(async (request) => {
  logger.error('webhook failed', { error: request.error });
  request.response = isInfrastructureError(request.error)
    ? respond(503, { error: 'the Kubernetes API server is unavailable; redeliver later' })
    : respond(500, { error: 'internal error' });
});
