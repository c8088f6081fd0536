// Real GitHub push deliveries from @octokit/webhooks-examples, re-pointed at a local repository.

import definitions, { type WebhookDefinition } from '@octokit/webhooks-examples';
import { sign } from '@octokit/webhooks-methods';

type PushEvent = WebhookDefinition<'push'>['examples'][number];

export type PushExample = 'branch-created' | 'tag-created' | 'tag-deleted';

const pushes = (definitions.find((d) => d.name === 'push')?.examples ?? []) as PushEvent[];

function pick(example: PushExample): PushEvent {
  const found = pushes.find((p) =>
    example === 'branch-created'
      ? p.ref.startsWith('refs/heads/') && p.created && p.commits.length > 0
      : example === 'tag-created'
        ? p.ref.startsWith('refs/tags/') && p.created
        : p.ref.startsWith('refs/tags/') && p.deleted,
  );
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${example} push`);
  return structuredClone(found);
}

export interface Retarget {
  /** http(s) URL of the repository; its clone, html, ssh and git URL forms are derived from it. */
  url?: string;
  /** New head commit id (also the id of the last listed commit). */
  after?: string;
  before?: string;
  ref?: string;
  /** Turn the branch creation into an ordinary push whose one commit touched these paths. */
  touched?: { added?: string[]; removed?: string[]; modified?: string[] };
}

/** A real example payload with only its repository URLs, commit ids, ref and file lists replaced. */
export function pushPayload(example: PushExample, change: Retarget = {}): PushEvent {
  const payload = pick(example);
  if (change.url) {
    const url = new URL(change.url.replace(/\.git$/, ''));
    const path = url.pathname.replace(/^\//, '');
    payload.repository.html_url = `${url.origin}/${path}`;
    payload.repository.url = `${url.origin}/${path}`;
    payload.repository.clone_url = `${url.origin}/${path}.git`;
    payload.repository.ssh_url = `git@${url.hostname}:${path}.git`;
    payload.repository.git_url = `git://${url.host}/${path}.git`;
  }
  if (change.ref) payload.ref = change.ref;
  if (change.before) payload.before = change.before;
  if (change.after) {
    payload.after = change.after;
    const last = payload.commits.at(-1);
    if (last) last.id = change.after;
    if (payload.head_commit) payload.head_commit.id = change.after;
  }
  if (change.touched) {
    payload.created = false;
    const last = payload.commits.at(-1);
    if (!last) throw new Error(`${example} lists no commit to change`);
    last.added = change.touched.added ?? [];
    last.removed = change.touched.removed ?? [];
    last.modified = change.touched.modified ?? [];
  }
  return payload;
}

/** Headers GitHub sends with a delivery, signed with `secret` (sha256). */
export async function deliveryHeaders(
  body: string,
  secret: string,
  event = 'push',
  delivery: string = crypto.randomUUID(),
): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/test',
    'x-github-event': event,
    'x-github-delivery': delivery,
    'x-hub-signature-256': await sign(secret, body),
  };
}

/** A real `ping` delivery body. */
export function pingPayload(): unknown {
  const ping = definitions.find((d) => d.name === 'ping')?.examples[0];
  if (!ping) throw new Error('@octokit/webhooks-examples has no ping');
  return structuredClone(ping);
}
