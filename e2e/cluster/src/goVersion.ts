/** Pure helpers about Go versions: parse `go version` and go.mod, compare. */

/** `go version go1.26.8 linux/amd64` -> `1.26.8`; undefined when unrecognised. */
export function parseGoVersionOutput(output: string): string | undefined {
  const match = /\bgo(\d+\.\d+(?:\.\d+)?)/.exec(output);
  return match?.[1];
}

/** The `go 1.26.0` directive of a go.mod file. */
export function requiredGoVersion(goMod: string): string {
  const match = /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod);
  if (!match) {
    throw new Error('go.mod has no "go X.Y" directive');
  }
  return match[1];
}

/** Numeric comparison of dotted versions: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) {
      return difference;
    }
  }
  return 0;
}
