import fs from 'node:fs';
import { addRemote, expandOid, fetch, Errors as GitErrors, init, listServerRefs } from 'isomorphic-git';
import { ConfigError } from '../errors';
import { openConnection, remoteArgs } from '../git/gitConnection';
import { isFullSha } from '../git/resolveReference';
import type { KubeClient } from '../kube/kubeClient';
import type { GitLimits } from '../settings/sourceLimits';
import { loadTrack } from '../track/loadTrack';
import { readGitAuth } from '../track/readGitAuth';
import type { TrackRef } from '../track/trackRef';
import { trackLabel } from '../track/trackRef';
import { withTemporaryDir } from './temporaryDir';

/** How far back along the track's reference a short SHA is looked for. */
const historyDepth = 1000;

const isShortSha = (text: string) => /^[0-9a-f]{4,39}$/i.test(text);

/**
 * `--commit` as git users type it: a full SHA; a branch or a tag of the track's repository (its
 * commit, tags peeled); or a short SHA (at least 4 hex digits) of a ref's tip or of the last 1,000
 * commits of the track's reference, which must name exactly one commit. Listed and fetched as the
 * track fetches (its URL, its credentials read with the caller's rights, the deployment's limits).
 */
export async function resolveCommitArg(
  openClient: KubeClient | (() => Promise<KubeClient>),
  ref: TrackRef,
  commit: string | undefined,
  limits: GitLimits,
  say: (line: string) => void = () => {},
): Promise<string | undefined> {
  if (commit === undefined || isFullSha(commit)) return commit?.toLowerCase();
  if (commit.trim() === '') throw new ConfigError('--commit is empty', { subject: '--commit' });
  const client = typeof openClient === 'function' ? await openClient() : openClient;
  const track = await loadTrack(client, ref);
  const connection = openConnection({
    url: track.spec.repository,
    auth: await readGitAuth(client, track),
    limits,
  });
  const where = `${connection.subject} (${trackLabel(ref)})`;
  const refs = await listServerRefs({ ...remoteArgs(connection), protocolVersion: 1, peelTags: true });
  const named = [`refs/heads/${commit}`, `refs/tags/${commit}`, commit].flatMap((name) =>
    refs.filter((r) => r.ref === name).map((r) => ({ ref: r.ref, oid: r.peeled ?? r.oid })),
  );
  const distinct = new Set(named.map((r) => r.oid));
  if (distinct.size > 1)
    throw new ConfigError(
      `--commit ${commit} is ambiguous in ${where}: ${named.map((r) => r.ref).join(' and ')}`,
      {
        subject: '--commit',
        hint: `name one: --commit refs/heads/${commit} or --commit refs/tags/${commit}`,
      },
    );
  const [byName] = named;
  if (byName) {
    say(`--commit ${commit}: ${byName.ref} is at ${byName.oid}`);
    return byName.oid;
  }
  if (!isShortSha(commit))
    throw new ConfigError(`--commit ${commit}: no branch or tag of that name in ${where}`, {
      subject: '--commit',
      hint: 'give a branch, a tag, or a commit SHA (at least 4 hex digits)',
    });
  const oid = await expandShortSha(connection, track.spec.reference, commit.toLowerCase(), where);
  say(`--commit ${commit} is ${oid}`);
  return oid;
}

/** A short SHA among the last commits of `reference`, fetched into a temporary clone. */
async function expandShortSha(
  connection: ReturnType<typeof openConnection>,
  reference: string,
  short: string,
  where: string,
): Promise<string> {
  return withTemporaryDir('lightkeeper-commit-', async (dir) => {
    await init({ fs, dir });
    // Only for isomorphic-git's refspec: the URL it fetches from is the one passed below.
    await addRemote({ fs, dir, remote: 'origin', url: connection.url });
    await fetch({
      fs,
      dir,
      ...remoteArgs(connection),
      ref: reference,
      singleBranch: true,
      depth: historyDepth,
      tags: false,
    });
    try {
      return await expandOid({ fs, dir, oid: short });
    } catch (e) {
      if (e instanceof GitErrors.AmbiguousError)
        throw new ConfigError(`--commit ${short} is ambiguous in ${where}: it starts more than one commit`, {
          subject: '--commit',
          cause: e,
          hint: 'give more hex digits, or the full SHA (`git rev-parse` prints it)',
        });
      if (e instanceof GitErrors.NotFoundError)
        throw new ConfigError(
          `--commit ${short}: no branch, tag or commit of the last ${historyDepth} of ${reference} starts with it in ${where}`,
          {
            subject: '--commit',
            cause: e,
            hint: 'give the full SHA of an older commit (`git rev-parse` prints it)',
          },
        );
      throw e;
    }
  });
}
