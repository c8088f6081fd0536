/** A commit as people read it: the first 7 hex digits (git's default abbreviation). */
export const shortCommit = (sha: string | undefined | null): string => (sha ? sha.slice(0, 7) : '');
