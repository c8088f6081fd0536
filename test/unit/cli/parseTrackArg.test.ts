import { describe, expect, it } from 'vitest';
import { parseTrackArg } from '../../../lib/cli/parseTrackArg';

describe('parseTrackArg', () => {
  it('accepts the long and the short forms', () => {
    expect(parseTrackArg('gt/app', 'ns')).toEqual({ kind: 'GitTrack', namespace: 'ns', name: 'app' });
    expect(parseTrackArg('ClusterGitTrack/demo', undefined)).toEqual({
      kind: 'ClusterGitTrack',
      name: 'demo',
    });
  });

  it('names the short forms when the type is unknown or missing', () => {
    expect(() => parseTrackArg('deployment/app', 'ns')).toThrow(
      /unknown track type deployment: expected gittrack \(gt\) or clustergittrack \(cgt\)/,
    );
    expect(() => parseTrackArg('app', 'ns')).toThrow(/gt\/NAME.*cgt\/NAME/);
  });
});
