import { describe, expect, it } from 'vitest';
import { touchesSubPath } from '../../../lib/webhook/touchesSubPath';

describe('touchesSubPath', () => {
  it('matches on segment boundaries', () => {
    expect(touchesSubPath(['app/deploy.yaml'], 'app')).toBe(true);
    expect(touchesSubPath(['app/nested/deploy.yaml'], './app/')).toBe(true);
    expect(touchesSubPath(['apple/deploy.yaml'], 'app')).toBe(false);
    expect(touchesSubPath(['README.md', 'docs/x.md'], 'app')).toBe(false);
  });

  it('counts the subPath itself and anything above it', () => {
    expect(touchesSubPath(['app'], 'app')).toBe(true);
    expect(touchesSubPath(['clusters'], 'clusters/prod')).toBe(true);
  });

  it('treats an empty subPath as the whole repository', () => {
    expect(touchesSubPath(['README.md'], undefined)).toBe(true);
    expect(touchesSubPath(['README.md'], '.')).toBe(true);
    expect(touchesSubPath([], '')).toBe(true);
  });
});
