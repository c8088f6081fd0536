export type { GitAuth } from './authHeaders';
export { type FetchCommitOptions, type FetchCommitResult, fetchCommit } from './fetchCommit';
export { type ManifestFile, type ReadManifestFilesOptions, readManifestFiles } from './readManifestFiles';
