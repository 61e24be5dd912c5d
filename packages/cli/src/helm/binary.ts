/**
 * The real `helm`, built from its Go module the way e2e-cluster builds
 * Kubernetes: `go install helm.sh/helm/v4/cmd/helm@<version>` into a cache
 * outside the repository keyed by the version, under a lock so parallel
 * test files build it once. Minutes on a cold machine; instant after.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const HELM_VERSION = 'v4.3.1';
export const HELM_MODULE = 'helm.sh/helm/v4';

const run = promisify(execFile);

/** ~/.cache/runway-portal, or $RUNWAY_CACHE_DIR, or $XDG_CACHE_HOME/runway-portal (as e2e-cluster). */
export function cacheRoot(): string {
  if (process.env.RUNWAY_CACHE_DIR) return process.env.RUNWAY_CACHE_DIR;
  return path.join(
    process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
    'runway-portal',
  );
}

export function helmPath(version = HELM_VERSION): string {
  return path.join(cacheRoot(), 'helm', version, 'helm');
}

/** The `-ldflags` of a build: stripped, with the version stamped in as Helm's release builds do. */
export function helmLdflags(version: string): string {
  return `-s -w -X ${HELM_MODULE}/internal/version.version=${version}`;
}

async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(lockFile, 'utf8'));
      let alive = false;
      try {
        process.kill(holder, 0);
        alive = true;
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(lockFile, { force: true });
      else if (Date.now() > deadline)
        throw new Error(
          `${lockFile} is held by process ${holder} for too long: remove it if that process is gone`,
        );
      else await new Promise(r => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/** The cached helm binary, built first if missing (needs Go and its module proxy). */
export async function ensureHelm(version = HELM_VERSION): Promise<string> {
  const target = helmPath(version);
  if (fs.existsSync(target)) return target;
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  return withLock(path.join(dir, '.lock'), async () => {
    if (fs.existsSync(target)) return target;
    const staging = fs.mkdtempSync(path.join(dir, 'build-'));
    try {
      await run(
        'go',
        [
          'install',
          '-ldflags',
          helmLdflags(version),
          `${HELM_MODULE}/cmd/helm@${version}`,
        ],
        {
          env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      fs.renameSync(path.join(staging, 'helm'), target);
    } catch (err) {
      throw new Error(
        `building helm ${version} with go install failed (Go 1.24+ and its module proxy are needed): ${
          (err as Error).message
        }`,
      );
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
    return target;
  });
}
