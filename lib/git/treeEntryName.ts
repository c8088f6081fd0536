// What a tree entry may be named, as git's fsck and verify_path decide: a name is one path
// component, never a path. A tenant's own git server serves trees git would refuse; a name like
// `..` or `.git` would climb out of, or into the metadata of, any directory the tree is written to.

/** Code points HFS+ ignores when it compares names (git's `next_hfs_char`): `.git\u200c` is `.git`. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** `.git` once HFS+ has dropped what it ignores; case folded in ASCII only, as git does. */
const HFS_DOTGIT = /^\.git$/i;

/**
 * The names NTFS takes for `.git` (git's `is_ntfs_dotgit`): `.git` or its short name `git~1`, in any
 * case, followed by nothing but dots and spaces (NTFS drops them) up to the end, a separator or
 * the `:` of an alternate data stream (`.git::$INDEX_ALLOCATION`).
 */
const NTFS_DOTGIT = /^(?:\.git|git~1)[. ]*(?:$|[\\/:])/i;

/**
 * Why `name` may not be a tree entry, or undefined when it may. Refused: the empty name, `.`, `..`,
 * a name with `/` or NUL, and `.git` in every form git's fsck knows (any case, HFS+ ignorable code
 * points, NTFS short names, trailing dots and spaces, alternate data streams, and after a backslash,
 * which Windows reads as a separator).
 */
export function treeEntryNameRefusal(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name === '.') return 'names the directory itself';
  if (name === '..') return 'names the parent directory';
  if (name.includes('/')) return "contains '/': an entry is a name, not a path";
  if (name.includes('\0')) return 'contains NUL';
  if (isDotGit(name)) return 'is .git (or a name a filesystem reads as .git)';
  return undefined;
}

function isDotGit(name: string): boolean {
  // Every form starts with `.`, `g`, `G` or a code point past ASCII, or has a backslash: most names are
  // told apart by their first character, before any regular expression runs.
  const first = name.charCodeAt(0);
  const candidate =
    first === 0x2e || first === 0x67 || first === 0x47 || first >= 0x80 || name.includes('\\');
  if (!candidate) return false;
  if (HFS_DOTGIT.test(name.replace(HFS_IGNORED, ''))) return true;
  // Windows reads `\` as a separator: every segment after one is checked too.
  return name.split('\\').some((segment) => NTFS_DOTGIT.test(segment));
}

/** `name` quoted, with control characters and invisible code points spelled out. */
export function showEntryName(name: string): string {
  return JSON.stringify(name).replace(
    /[\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g,
    (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}
