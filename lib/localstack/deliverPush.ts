import { InvokeError } from '../errors';
import { git, type TestRepo } from './gitRepo';
import { deliveryHeaders, pushPayload, type Retarget } from './pushPayload';

export interface PushDelivery {
  repo: TestRepo;
  webhookUrl: string;
  secret: string;
  /** The commit the branch pointed at before the push; default the parent of HEAD. */
  before?: string | undefined;
}

export interface PushResult {
  /** The pushed commit: HEAD of the repository's working tree. */
  commit: string;
  status: number;
  body: unknown;
}

const noCommit = '0'.repeat(40);

/**
 * Delivers what GitHub would send for a push of the repository's current branch: a real example
 * payload re-pointed at the repository and its HEAD, listing the files changed since `before`,
 * signed with the webhook secret.
 */
export async function deliverPush({ repo, webhookUrl, secret, before }: PushDelivery): Promise<PushResult> {
  const after = git(repo, 'rev-parse', 'HEAD');
  const branch = git(repo, 'symbolic-ref', '--short', 'HEAD');
  const base = before ?? parentOf(repo);
  const body = JSON.stringify(
    pushPayload('branch-created', {
      url: repo.url,
      ref: `refs/heads/${branch}`,
      before: base ?? noCommit,
      after,
      touched: base ? changedFiles(repo, base, after) : { added: lines(git(repo, 'ls-files')) },
    }),
  );
  let res: Response;
  try {
    res = await fetch(webhookUrl, {
      method: 'POST',
      body,
      headers: await deliveryHeaders(body, secret),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (cause) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, a timeout) is its cause.
    const why =
      cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : cause;
    throw new InvokeError(`could not deliver the push to ${webhookUrl}: ${why}`, {
      subject: webhookUrl,
      cause,
    });
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { commit: after, status: res.status, body: parsed };
}

function parentOf(repo: TestRepo): string | undefined {
  try {
    return git(repo, 'rev-parse', '--verify', '--quiet', 'HEAD^');
  } catch {
    return undefined;
  }
}

function changedFiles(repo: TestRepo, from: string, to: string): NonNullable<Retarget['touched']> {
  const touched = { added: [] as string[], removed: [] as string[], modified: [] as string[] };
  for (const line of lines(git(repo, 'diff', '--name-status', '--no-renames', from, to))) {
    const [status, path] = line.split('\t');
    if (!path) continue;
    if (status === 'A') touched.added.push(path);
    else if (status === 'D') touched.removed.push(path);
    else touched.modified.push(path);
  }
  return touched;
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');
