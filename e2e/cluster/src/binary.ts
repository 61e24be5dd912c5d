import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import {
  mkdir,
  readFile,
  readdir,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import {
  compareVersions,
  parseGoVersionOutput,
  requiredGoVersion,
} from './goVersion';

/** This package's folder (resolved through the workspace link, as Backstage's resolvePackagePath does). */
export const PACKAGE_DIR = dirname(
  require.resolve('@runway-portal/e2e-cluster/package.json'),
);
/** The Go module with the runway-kube main package. */
export const KUBE_SOURCE_DIR = join(PACKAGE_DIR, 'kube');
export const BINARY_NAME = 'runway-kube';

/** ~/.cache/runway-portal, or $RUNWAY_CACHE_DIR, or $XDG_CACHE_HOME/runway-portal. */
export function cacheRoot(): string {
  if (process.env.RUNWAY_CACHE_DIR) return process.env.RUNWAY_CACHE_DIR;
  const xdg = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(xdg, 'runway-portal');
}

/** `k8s.io/kubernetes v1.36.3` in a go.mod -> `v1.36.3`. */
export function kubernetesVersion(goMod: string): string {
  const match = /^\s*(?:require\s+)?k8s\.io\/kubernetes\s+(v\S+)/m.exec(goMod);
  if (!match) throw new Error('go.mod does not require k8s.io/kubernetes');
  return match[1];
}

/**
 * The linker flags of a build: stripped, and the Kubernetes version stamped in
 * as release builds do (`make` sets the same `-X` variables), so that `/version`
 * answers `v1.36.3` instead of `v0.0.0-master+$Format:%H$`.
 */
export function buildLdflags(version: string): string {
  const [major, minor] = version.replace(/^v/, '').split('.');
  const pkg = 'k8s.io/component-base/version';
  return [
    '-s -w',
    `-X ${pkg}.gitVersion=${version}`,
    `-X ${pkg}.gitMajor=${major}`,
    `-X ${pkg}.gitMinor=${minor}`,
    `-X ${pkg}.gitTreeState=clean`,
  ].join(' ');
}

/** Hash of go.mod, go.sum, the Go sources and the linker flags: a new version or flag means a new key. */
export function sourceKey(
  files: ReadonlyArray<{ name: string; content: string }>,
): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    hash.update(`${file.name}\0${file.content}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function readSources(): Promise<
  Array<{ name: string; content: string }>
> {
  const names = (await readdir(KUBE_SOURCE_DIR)).filter(
    name => name === 'go.mod' || name === 'go.sum' || name.endsWith('.go'),
  );
  return Promise.all(
    names.map(async name => ({
      name,
      content: await readFile(join(KUBE_SOURCE_DIR, name), 'utf8'),
    })),
  );
}

export interface KubeBinaryLocation {
  path: string;
  kubernetesVersion: string;
  key: string;
}

/** Where the binary for the current sources lives (built or not). */
export async function kubeBinaryLocation(): Promise<KubeBinaryLocation> {
  const sources = await readSources();
  const goMod = sources.find(file => file.name === 'go.mod')?.content ?? '';
  const version = kubernetesVersion(goMod);
  const key = `${version}-${sourceKey([
    ...sources,
    { name: 'ldflags', content: buildLdflags(version) },
  ])}`;
  return {
    path: join(cacheRoot(), 'kube', key, BINARY_NAME),
    kubernetesVersion: version,
    key,
  };
}

/** A failed `go build`, with the command and the tail of its output. */
export class KubeBuildError extends Error {
  constructor(
    readonly command: string,
    readonly output: string,
    readonly logPath: string,
  ) {
    super(
      `Building the Kubernetes binaries failed.\n  command: ${command}\n  in: ${KUBE_SOURCE_DIR}\n` +
        `  full log: ${logPath}\n--- last lines of output ---\n${output}`,
    );
    this.name = 'KubeBuildError';
  }
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; logPath?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return new Promise<{ code: number | null; output: string }>(
    (resolvePromise, reject) => {
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const log = options.logPath
        ? createWriteStream(options.logPath)
        : undefined;
      let output = '';
      const collect = (chunk: Buffer) => {
        log?.write(chunk);
        output = (output + chunk.toString('utf8')).slice(-20000);
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('error', reject);
      child.once('close', code => {
        log?.end();
        resolvePromise({ code, output });
      });
    },
  );
}

const GO_CANDIDATES = [
  process.env.RUNWAY_GO,
  'go',
  '/usr/local/go/bin/go',
].filter((candidate): candidate is string => Boolean(candidate));

/** The first `go` command (default: $RUNWAY_GO, `go` on PATH, /usr/local/go/bin/go) that is new enough. */
export async function findGo(
  required: string,
  candidates: readonly string[] = GO_CANDIDATES,
): Promise<string> {
  const tooOld: string[] = [];
  for (const candidate of candidates) {
    let result;
    try {
      result = await run(candidate, ['version']);
    } catch {
      continue; // not installed there
    }
    const version = parseGoVersionOutput(result.output);
    if (
      result.code === 0 &&
      version &&
      compareVersions(version, required) >= 0
    ) {
      return candidate;
    }
    tooOld.push(
      `${candidate} is ${version ?? `unrecognised (${result.output.trim()})`}`,
    );
  }
  throw new Error(
    tooOld.length > 0
      ? `Go ${required} or newer is needed to build the Kubernetes binaries (the go line of ${join(
          KUBE_SOURCE_DIR,
          'go.mod',
        )}), but ${tooOld.join('; ')}. ` +
        'Install a newer Go (https://go.dev/dl) or point RUNWAY_GO at one.'
      : `Go ${required} or newer is needed to build the Kubernetes binaries, but no Go was found (tried ${candidates.join(
          ', ',
        )}). ` +
        'Install Go (https://go.dev/dl) or point RUNWAY_GO at its go binary.',
  );
}

/**
 * Runs `go build` of the runway-kube sources into `output`. `env` replaces
 * the environment (the benchmark passes an empty GOCACHE for a cold build).
 */
export async function buildKubeBinary(
  output: string,
  options: { logPath: string; env?: NodeJS.ProcessEnv },
): Promise<{ seconds: number }> {
  const goMod = await readFile(join(KUBE_SOURCE_DIR, 'go.mod'), 'utf8');
  const go = await findGo(requiredGoVersion(goMod));
  const ldflags = buildLdflags(kubernetesVersion(goMod));
  const args = ['build', '-trimpath', `-ldflags=${ldflags}`, '-o', output, '.'];
  const command = `${go} ${args
    .map(arg => (arg.includes(' ') ? `'${arg}'` : arg))
    .join(' ')}`;
  const started = Date.now();
  const result = await run(go, args, {
    cwd: KUBE_SOURCE_DIR,
    logPath: options.logPath,
    env: options.env,
  });
  if (result.code !== 0) {
    await rm(output, { force: true });
    throw new KubeBuildError(
      command,
      result.output.trimEnd().split('\n').slice(-60).join('\n'),
      options.logPath,
    );
  }
  return { seconds: (Date.now() - started) / 1000 };
}

export interface EnsureOptions {
  /** Progress messages (default: stderr). */
  log?: (message: string) => void;
}

/**
 * The path of the runway-kube binary for the current sources, building it
 * first when the cache has none. Concurrent callers (test files, engineers)
 * wait for one build through a lock file.
 */
export async function ensureKubeBinary(
  options: EnsureOptions = {},
): Promise<string> {
  const log =
    options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const location = await kubeBinaryLocation();
  if (existsSync(location.path)) return location.path;

  const dir = join(location.path, '..');
  await mkdir(dir, { recursive: true });
  const release = await lockfile.lock(dir, {
    lockfilePath: join(dir, 'build.lock'),
    stale: 60_000,
    update: 10_000,
    retries: {
      retries: 60 * 60,
      factor: 1,
      minTimeout: 1000,
      maxTimeout: 1000,
    },
  });
  try {
    if (existsSync(location.path)) return location.path;
    log(
      `Building ${BINARY_NAME} (Kubernetes ${location.kubernetesVersion}) into ${dir}: a cold build takes many minutes on 2 cores...`,
    );
    const temporary = `${location.path}.partial-${process.pid}`;
    const { seconds } = await buildKubeBinary(temporary, {
      logPath: join(dir, 'build.log'),
    });
    await rename(temporary, location.path);
    await writeFile(
      join(dir, 'build.json'),
      JSON.stringify(
        {
          seconds,
          builtAt: new Date().toISOString(),
          kubernetesVersion: location.kubernetesVersion,
        },
        null,
        2,
      ),
    );
    log(`Built ${location.path} in ${seconds.toFixed(0)} s`);
    return location.path;
  } finally {
    await release();
  }
}
