import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../errors';
import { validateSubPath } from '../git/validateSubPath';

const isDirectory = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * The repository root of `diff --local DIR`, which may name the root or the track's subPath folder
 * itself: DIR when DIR/subPath exists; else the folder DIR is subPath of (by its trailing path, or
 * by its place in the git work tree that holds it).
 */
export async function localRepositoryRoot(dir: string, subPath: string): Promise<string> {
  const segments = validateSubPath(subPath);
  const given = resolve(dir);
  if (!(await isDirectory(given)))
    throw new ConfigError(`--local ${dir} is not a directory`, { subject: dir });
  if (await isDirectory(join(given, ...segments))) return given;
  const tail = given.split(sep).slice(-segments.length);
  if (segments.length > 0 && tail.join('/') === segments.join('/'))
    return given.split(sep).slice(0, -segments.length).join(sep) || sep;
  const top = await workTreeOf(given);
  if (top && relative(top, given).split(sep).join('/') === segments.join('/')) return top;
  throw new ConfigError(
    `--local ${dir} has no folder ${subPath}/ (the track's subPath), nor is it that folder`,
    {
      subject: dir,
      hint: `give the repository's root, or its ${subPath}/ folder`,
    },
  );
}

/** The nearest folder at or above `dir` that holds `.git`. */
async function workTreeOf(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    if (
      await stat(join(at, '.git')).then(
        () => true,
        () => false,
      )
    )
      return at;
    if (dirname(at) === at) return undefined;
  }
}
