import type { MiddlewareObj } from '@middy/core';

/**
 * @middy/ssm for the parameters a function fetches (lib/settings/functionSettings.ts
 * `ssmFetchData`), loaded only when it fetches any: with its SSM client it is a fifth of a
 * function's bundle, parsed at every cold start of a function configured without SSM otherwise.
 * Setting values on the context, cached for `cacheExpiry` ms.
 */
export async function ssmMiddleware(
  fetchData: Record<string, string>,
  cacheExpiry: number,
  // biome-ignore lint/suspicious/noExplicitAny: middy's own type for a middleware of any handler
): Promise<MiddlewareObj<any, any, Error, any> | undefined> {
  if (Object.keys(fetchData).length === 0) return undefined;
  const { default: ssm } = await import('@middy/ssm');
  return ssm({ fetchData, setToContext: true, cacheExpiry });
}
