import type { GitLimitError } from '../errors';
import type { GitLimits } from '../settings/sourceLimits';
import { overLimit } from './gitLimits';

/**
 * What one walk of a commit's tree may still cost: tree entries visited, files read and their
 * bytes. A tree that names one subtree twice per level names 2^depth paths in a few KiB; the walk
 * stops at the first entry over a cap with a GitLimitError naming the commit, the path and the
 * setting, having held at most `maxReadBytes` (plus one object) in memory.
 */
export class CommitReadBudget {
  private entries = 0;
  private files = 0;
  private bytes = 0;

  constructor(
    private readonly limits: Pick<GitLimits, 'maxTreeEntries' | 'maxFiles' | 'maxReadBytes'>,
    /** The commit, as named in errors (`commit <sha>`). */
    private readonly commit: string,
  ) {}

  /** Counts the `count` entries of the tree at `path` (repository-relative, '' the root). */
  visitTree(path: string, count: number): void {
    this.entries += count;
    if (this.entries > this.limits.maxTreeEntries)
      throw this.over(
        'maxTreeEntries',
        path || '/',
        `the tree ${path || '/'}`,
        `${this.entries} tree entries`,
      );
  }

  /** Counts a file about to be read (before its content is). */
  openFile(path: string): void {
    this.files += 1;
    if (this.files > this.limits.maxFiles) throw this.over('maxFiles', path, path, `${this.files} files`);
  }

  /** Counts the bytes of a file just read. */
  readFile(path: string, bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxReadBytes)
      throw this.over('maxReadBytes', path, path, `${this.bytes} bytes of files`);
  }

  private over(
    limit: 'maxTreeEntries' | 'maxFiles' | 'maxReadBytes',
    path: string,
    what: string,
    total: string,
  ): GitLimitError {
    const message = `commit ${this.commit} is too large to read: ${what} makes ${total}`;
    return overLimit(limit, message, this.limits[limit], path);
  }
}
