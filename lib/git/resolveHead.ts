import { authHeaders, type GitAuth } from './authHeaders';
import { refusePlainHttpCredentials } from './refusePlainHttpCredentials';
import { resolveReference } from './resolveReference';
import { toGitFetchError } from './toGitFetchError';

/**
 * The commit `reference` names on the remote right now, by one ref listing (nothing fetched): what a
 * pinned track reports as its head.
 */
export async function resolveHead(options: {
  url: string;
  reference: string;
  auth?: GitAuth;
}): Promise<string> {
  const { url, reference, auth } = options;
  refusePlainHttpCredentials(url, auth);
  try {
    return (await resolveReference({ url, reference, headers: authHeaders(auth) })).oid;
  } catch (error) {
    throw toGitFetchError(error, url);
  }
}
