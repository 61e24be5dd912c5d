/**
 * Children of the local system, each in its own process group with its
 * output in a log file. The same mechanism as the cluster harness: groups
 * are killed on stop(), and on exit or SIGINT/SIGTERM/SIGHUP of this
 * process; after a kill -9 each child notices on its own
 * (RUNWAY_KUBE_PARENT_PID, watched by parentWatch.cjs in Node children).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PARENT_PID_ENV = 'RUNWAY_KUBE_PARENT_PID';

/** `--require` for NODE_OPTIONS: the parent watch preloaded into Node children. */
export const PARENT_WATCH = join(
  dirname(require.resolve('@runway-portal/e2e-system/package.json')),
  'src',
  'parentWatch.cjs',
);

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const liveGroups = new Set<number>();
let handlersInstalled = false;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Kills every live group at once; safe in an 'exit' handler. */
export function killAllSync(): void {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
  liveGroups.clear();
}

function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killAllSync);
}

/** NODE_OPTIONS with the parent watch added to what is already there. */
export function nodeOptionsWithWatch(existing: string | undefined): string {
  const watch = `--require ${JSON.stringify(PARENT_WATCH)}`;
  return existing ? `${existing} ${watch}` : watch;
}

export class ChildService {
  readonly exited: Promise<ExitInfo>;
  private exitInfo?: ExitInfo;
  private readonly child: ChildProcess;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    options: { cwd: string; env: NodeJS.ProcessEnv; logPath: string },
  ) {
    installExitHandlers();
    const log = openSync(options.logPath, 'w'); // one log per run
    try {
      this.child = spawn(command, args, {
        cwd: options.cwd,
        detached: true, // own group: stop() ends the whole tree
        stdio: ['ignore', log, log],
        env: {
          ...options.env,
          [PARENT_PID_ENV]: String(process.pid),
          NODE_OPTIONS: nodeOptionsWithWatch(options.env.NODE_OPTIONS),
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
        this.exitInfo ??= info;
        resolve(this.exitInfo);
      };
      this.child.once('exit', (code, signal) => done({ code, signal }));
      this.child.once('error', () => done({ code: null, signal: null }));
    });
    this.child.on('error', () => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** SIGTERM to the group, SIGKILL after graceMs; then SIGKILL to anything left in the group. */
  async stop(graceMs = 5000): Promise<ExitInfo> {
    const pid = this.child.pid;
    if (!this.exitInfo) {
      signalGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    signalGroup(pid, 'SIGKILL');
    return this.exitInfo!;
  }
}
