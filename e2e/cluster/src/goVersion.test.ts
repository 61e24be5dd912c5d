import {
  compareVersions,
  parseGoVersionOutput,
  requiredGoVersion,
} from './goVersion';

describe('go versions', () => {
  it('parses `go version` output', () => {
    expect(parseGoVersionOutput('go version go1.26.8 linux/amd64')).toBe(
      '1.26.8',
    );
    expect(parseGoVersionOutput('go version go1.22 linux/arm64')).toBe('1.22');
    expect(parseGoVersionOutput('bash: go: command not found')).toBeUndefined();
  });

  it('reads the go directive of a go.mod', () => {
    expect(requiredGoVersion('module x\n\ngo 1.26.0\n\nrequire (\n)\n')).toBe(
      '1.26.0',
    );
    expect(() => requiredGoVersion('module x\n')).toThrow(
      /no "go X.Y" directive/,
    );
  });

  it('compares numerically, not as text', () => {
    expect(compareVersions('1.26.8', '1.26.0')).toBeGreaterThan(0);
    expect(compareVersions('1.9', '1.26.0')).toBeLessThan(0);
    expect(compareVersions('1.26', '1.26.0')).toBe(0);
  });
});
