import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

/** Tells runway-kube to exit when this process exits (see kube/parent.go). */
export const PARENT_PID_ENV = 'RUNWAY_KUBE_PARENT_PID';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Every process group started here and alive, for the exit handlers. */
const liveGroups = new Set<number>();
/** Directories to remove when this process exits. */
const dirsToRemoveOnExit = new Set<string>();

export interface ManagedProcessOptions {
  cwd?: string;
  /** The child's environment (default: this process's); PARENT_PID_ENV is always added. */
  env?: NodeJS.ProcessEnv;
  /** Start a fresh log instead of appending (default: append). */
  truncateLog?: boolean;
}

/**
 * A child in its own process group, with stdout and stderr in a log file.
 * The group is killed on stop(), and on exit or SIGINT/SIGTERM/SIGHUP of
 * this process; the child also watches this process (PARENT_PID_ENV).
 */
export class ManagedProcess {
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly child: ChildProcess;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    readonly logPath: string,
    options: ManagedProcessOptions = {},
  ) {
    installExitHandlers();
    const log = openSync(logPath, options.truncateLog ? 'w' : 'a');
    try {
      this.child = spawn(command, args, {
        cwd: options.cwd,
        detached: true, // own process group: stop() kills the whole group
        stdio: ['ignore', log, log],
        env: {
          ...(options.env ?? process.env),
          [PARENT_PID_ENV]: String(process.pid),
        },
      });
    } finally {
      closeSync(log);
    }
    const pid = this.child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    this.exited = new Promise(resolve => {
      const done = (info: ExitInfo) => {
        if (pid !== undefined) liveGroups.delete(pid);
        uninstallWhenIdle();
        this.exitInfo ??= info;
        resolve(this.exitInfo);
      };
      this.child.once('exit', (code, signal) => done({ code, signal }));
      this.child.once('error', () => done({ code: null, signal: null }));
    });
    // Handled through `exited`; an unhandled 'error' event would crash the parent.
    this.child.on('error', () => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Exit code/signal once exited, else undefined. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** `signal` (default SIGKILL: a crash, nothing released) to the whole group; resolves when exited. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    signalGroup(this.child.pid, signal);
    return this.exited;
  }

  /** SIGTERM to the group, then SIGKILL after graceMs; resolves when exited. */
  async stop(graceMs = 3000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    signalGroup(this.child.pid, 'SIGTERM');
    const timer = setTimeout(
      () => signalGroup(this.child.pid, 'SIGKILL'),
      graceMs,
    );
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
      // Helpers the component may have started in its group.
      signalGroup(this.child.pid, 'SIGKILL');
    }
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export function removeDirOnExit(dir: string, remove: boolean): void {
  if (remove) {
    installExitHandlers();
    dirsToRemoveOnExit.add(dir);
  } else {
    dirsToRemoveOnExit.delete(dir);
    uninstallWhenIdle();
  }
}

/** Kills every live group synchronously; safe inside an 'exit' handler. */
export function killAllSync(): void {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
  liveGroups.clear();
  for (const dir of dirsToRemoveOnExit) {
    rmSync(dir, { recursive: true, force: true });
  }
  dirsToRemoveOnExit.clear();
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const signalHandlers = new Map<NodeJS.Signals, () => void>();

/** Installed while something is registered, so test files do not pile up listeners. */
function installExitHandlers(): void {
  if (signalHandlers.size > 0) return;
  process.on('exit', killAllSync);
  for (const signal of SIGNALS) {
    const handler = () => {
      killAllSync();
      uninstallExitHandlers();
      // Keep the default behaviour (exit) unless someone else handles it.
      if (process.listenerCount(signal) === 0)
        process.kill(process.pid, signal);
    };
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }
}

function uninstallExitHandlers(): void {
  process.removeListener('exit', killAllSync);
  for (const [signal, handler] of signalHandlers)
    process.removeListener(signal, handler);
  signalHandlers.clear();
}

function uninstallWhenIdle(): void {
  if (liveGroups.size === 0 && dirsToRemoveOnExit.size === 0)
    uninstallExitHandlers();
}

/** The last `lines` lines of a log file ('' when missing). */
export async function logTail(path: string, lines = 40): Promise<string> {
  const maxBytes = 64 * 1024;
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    return buffer
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } finally {
    await handle.close();
  }
}

export interface ProcessMemory {
  /** Resident set size: counts the shared binary pages in full for every process. */
  rss: number;
  /** Proportional set size: shared pages divided among the processes sharing them. */
  pss: number;
}

/** Memory of a process in bytes, from /proc/PID/smaps_rollup (zeros when gone). */
export async function processMemory(pid: number): Promise<ProcessMemory> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(
    () => '',
  );
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) *
    1024;
  return { rss: kib('Rss'), pss: kib('Pss') };
}
