export type ManifestFileType = 'yaml' | 'json';

/** Which files are manifests: `.yaml`/`.yml` and `.json` (any case); everything else is ignored. */
export function manifestFileType(path: string): ManifestFileType | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (lower.endsWith('.json')) return 'json';
  return undefined;
}
