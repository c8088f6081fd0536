import { GitFetchError } from '../errors';

/**
 * The segments of a repository sub-path: relative, `/`-separated, normalized (no empty, `.` or `..`
 * segments). `''` and `.` mean the repository root; one trailing `/` is tolerated.
 */
export function validateSubPath(subPath: string): string[] {
  const trimmed = subPath.endsWith('/') && subPath.length > 1 ? subPath.slice(0, -1) : subPath;
  if (trimmed === '' || trimmed === '.') return [];
  const segments = trimmed.split('/');
  const bad =
    trimmed.startsWith('/') || trimmed.includes('\0') || segments.some((s) => ['', '.', '..'].includes(s));
  if (bad) {
    throw new GitFetchError(
      `invalid subPath ${JSON.stringify(subPath)}: expected a relative, normalized path without '..' such as "apps/prod"`,
      { subject: subPath },
    );
  }
  return segments;
}
