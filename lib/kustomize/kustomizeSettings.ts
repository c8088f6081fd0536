/** A track's `spec.kustomize`. */
export interface KustomizeSpec {
  /** Render a subPath holding a kustomization (default true); false reads its files as plain manifests. */
  enabled?: boolean;
  /**
   * Allow remote bases (git) and remote resources (http) (default false): a GitTrack then reaches only
   * the deployment's allow-listed hosts (lib/kustomize/remoteAccess.ts).
   */
  allowRemote?: boolean;
}
