import type { KubeObject } from './KubeObject';
import type { ObjectRef } from './objectRef';

/** Where a manifest was read from; `line` is 1-based. */
export type ManifestSource = { path: string; line: number };

export type Manifest = { source: ManifestSource; object: KubeObject; ref: ObjectRef };
