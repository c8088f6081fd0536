import { describe, expect, it } from 'vitest';
import { repositoryKey } from '../../../lib/git/repositoryKey';
import { pushPayload } from '../../../lib/localstack/pushPayload';

describe('repositoryKey', () => {
  it('gives every URL form of a real payload the same key', () => {
    const { repository } = pushPayload('branch-created');
    const keys = [repository.clone_url, repository.ssh_url, repository.html_url, repository.git_url].map(
      repositoryKey,
    );
    expect(new Set(keys)).toEqual(new Set(['github.com/codertocat/hello-world']));
  });

  it('ignores case, credentials, default ports, trailing slashes and .git', () => {
    for (const url of [
      'https://github.com/Codertocat/Hello-World',
      'https://x-access-token:secret@GitHub.com/codertocat/hello-world.git',
      'https://github.com:443/codertocat/hello-world/',
      'http://github.com/codertocat/hello-world.git',
      'ssh://git@github.com/Codertocat/Hello-World.git',
      'ssh://git@github.com:22/Codertocat/Hello-World.git',
      'git+ssh://git@github.com/Codertocat/Hello-World',
      'git@github.com:Codertocat/Hello-World.git',
      'git://github.com/Codertocat/Hello-World.git',
    ]) {
      expect(repositoryKey(url), url).toBe('github.com/codertocat/hello-world');
    }
  });

  it('tells hosts, ports and paths apart', () => {
    expect(repositoryKey('https://github.example.com/codertocat/hello-world')).toBe(
      'github.example.com/codertocat/hello-world',
    );
    expect(repositoryKey('http://127.0.0.1:8080/repo.git')).toBe('127.0.0.1:8080/repo');
    expect(repositoryKey('http://127.0.0.1:8081/repo.git')).not.toBe(
      repositoryKey('http://127.0.0.1:8080/repo'),
    );
    expect(repositoryKey('https://github.com/codertocat/hello-world-2')).not.toBe(
      repositoryKey('https://github.com/codertocat/hello-world'),
    );
  });

  it('refuses what is not a repository URL', () => {
    for (const url of ['', 'not a url', 'file:///tmp/repo', 'https://github.com/', 'mailto:a@b.c']) {
      expect(repositoryKey(url), url).toBeUndefined();
    }
  });
});
