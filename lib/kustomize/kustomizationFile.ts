/** The names kustomize looks for in a directory, in its order. */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** The kustomization file among a directory's entry names, if any. */
export const kustomizationFileIn = (names: Iterable<string>): string | undefined => {
  const present = new Set(names);
  return KUSTOMIZATION_FILE_NAMES.find((n) => present.has(n));
};
