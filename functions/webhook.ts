import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loadWebhookConfig } from '../lib/config/webhookConfig';
import { lazyLambdaClient } from '../lib/lambda/lazyLambdaClient';
import { missingSources } from '../lib/lambda/missingSources';
import { ssmMiddleware } from '../lib/lambda/ssmMiddleware';
import { webhookFailure } from '../lib/lambda/webhookFailure';
import { webhookInvocation } from '../lib/lambda/webhookInvocation';
import { createTelemetry } from '../lib/observability/telemetry';
import { ssmFetchData } from '../lib/settings/functionSettings';

// POST /webhook (API Gateway HTTP API, payload v2): verify, match, start reconciles, answer at once.

const telemetry = createTelemetry('webhook');
const { logger, metrics } = telemetry;
const settings = loadWebhookConfig();
const { sources } = settings;
const lambda = lazyLambdaClient(settings.lambda);
const fetchData = ssmFetchData(['webhookSecret', 'previousWebhookSecret', 'webhookKubeconfig'], sources);
for (const missing of missingSources(['webhookSecret', 'webhookKubeconfig'], sources)) logger.error(missing);

type Response = APIGatewayProxyStructuredResultV2;
const respond = (statusCode: number, body: object): Response => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function webhook(event: APIGatewayProxyEventV2, context: Context): Promise<Response> {
  const delivery = { headers: event.headers ?? {}, body: event.body, isBase64Encoded: event.isBase64Encoded };
  const { status, body } = await webhookInvocation({ settings, lambda, telemetry }, delivery, context);
  return respond(status, body);
}

const middleware = middy<APIGatewayProxyEventV2, Response>()
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
// Fetched at cold start and refreshed every 5 minutes, so a rotated secret reaches warm containers.
const ssm = await ssmMiddleware(fetchData, settings.ssmCacheExpiryMs);
if (ssm) middleware.use(ssm);

export const handler = middleware.handler(webhook).onError(async (request) => {
  const failure = webhookFailure(request.error);
  logger.error(failure.log.message, failure.log.fields);
  request.response = respond(failure.status, failure.body);
});
