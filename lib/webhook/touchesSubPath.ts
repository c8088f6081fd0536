/** `./a/b/` → `a/b`; `''`, `.` and `/` → `''` (the repository root). */
export function normalizeSubPath(subPath: string | undefined): string {
  return (subPath ?? '')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

/**
 * Whether any touched path lies under `subPath`, on segment boundaries (`app` covers `app/x.yaml`,
 * not `apple/x.yaml`). A path above `subPath` counts too: replacing `app` by a file or a link changes
 * what `app/x` means.
 */
export function touchesSubPath(paths: readonly string[], subPath: string | undefined): boolean {
  const root = normalizeSubPath(subPath);
  if (root === '') return true;
  return paths.some((path) => {
    const p = normalizeSubPath(path);
    return p === root || p.startsWith(`${root}/`) || root.startsWith(`${p}/`);
  });
}
