/** The names kustomize looks for in a directory, in its order. */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** The kustomization file among a directory's entry names, if any. */
export const kustomizationFileIn = (names: Iterable<string>): string | undefined => {
  const present = new Set(names);
  return KUSTOMIZATION_FILE_NAMES.find((n) => present.has(n));
};

/**
 * Files without kustomization files: a track that opts out of rendering (`kustomize.enabled: false`)
 * reads every other file as a plain manifest, and a kustomization is no Kubernetes object.
 */
export const withoutKustomizationFiles = <F extends { path: string }>(files: ReadonlyArray<F>): F[] =>
  files.filter(
    (f) => !(KUSTOMIZATION_FILE_NAMES as ReadonlyArray<string>).includes(f.path.split('/').pop() ?? ''),
  );
