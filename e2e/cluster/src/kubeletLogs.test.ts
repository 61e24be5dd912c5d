import { logText } from './kubeletLogs';

describe('the kubelet log stand-in', () => {
  const lines = ['one', 'two', 'three'];

  it('answers the whole log, each line ended by a newline', () => {
    expect(logText(lines, {})).toBe('one\ntwo\nthree\n');
  });

  it('takes the last tailLines, then at most limitBytes from their start, as a kubelet does', () => {
    expect(logText(lines, { tailLines: 2 })).toBe('two\nthree\n');
    expect(logText(lines, { tailLines: 2, limitBytes: 6 })).toBe('two\nth');
    expect(logText(lines, { limitBytes: 100 })).toBe('one\ntwo\nthree\n');
  });
});
