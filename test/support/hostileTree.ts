// Trees git itself would refuse (`..`, `.git`, a name twice), written as raw objects into a repository
// with `git hash-object --literally`, as a tenant's own git server could serve them.
import { execFileSync } from 'node:child_process';
import { gitEnv } from '../../lib/localstack/gitRepo';

export interface RawEntry {
  /** As git writes it: `100644`, `100755`, `120000`, `40000`, `160000`. */
  mode: string;
  name: string;
  oid: string;
}

/** A tree object's bytes, entries in the order given (unsorted and repeated names kept). */
export function rawTree(entries: readonly RawEntry[]): Buffer {
  return Buffer.concat(
    entries.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, 'hex')])),
  );
}

const git = (dir: string, args: string[], input?: Buffer | string): string =>
  execFileSync('git', ['-C', dir, ...args], { env: gitEnv, input, encoding: 'utf8' }).trim();

/** Writes an object as it is, unchecked; returns its id. */
export function writeObject(dir: string, type: 'blob' | 'tree', content: Buffer | string): string {
  return git(dir, ['hash-object', '-w', '--literally', '-t', type, '--stdin'], content);
}

export const blob = (dir: string, content: string) => writeObject(dir, 'blob', content);
export const tree = (dir: string, entries: readonly RawEntry[]) => writeObject(dir, 'tree', rawTree(entries));

/** A commit of `treeOid` (on `parent` when given), and `main` moved to it; returns its id. */
export function commitTree(dir: string, treeOid: string, message: string, parent?: string): string {
  const sha = git(dir, ['commit-tree', treeOid, '-m', message, ...(parent ? ['-p', parent] : [])]);
  git(dir, ['update-ref', 'refs/heads/main', sha]);
  return sha;
}
