import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../../lib/cli/closestName';

describe('closestName', () => {
  it('finds the track a typo meant', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestName('platfrom', ['demo', 'platform', 'team-a'])).toBe('platform');
    expect(closestName('team', ['demo', 'platform', 'team-a-apps'])).toBe('team-a-apps');
  });
  it('suggests nothing when nothing is close', () => {
    expect(closestName('billing', ['demo', 'platform'])).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});
