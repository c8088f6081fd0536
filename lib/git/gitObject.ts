export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** One git object: its type and its content (without git's header). */
export interface GitObject {
  type: ObjectType;
  content: Buffer;
}
