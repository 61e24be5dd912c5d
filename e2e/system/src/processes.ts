/**
 * Children of the local system: the cluster harness's ManagedProcess (own
 * process group, log file, killed on stop() and on exit or SIGINT/SIGTERM/
 * SIGHUP of this process) with the parent watch preloaded into Node
 * children, so each one notices a kill -9 of this process on its own
 * (RUNWAY_KUBE_PARENT_PID, watched by parentWatch.cjs).
 */
import { ManagedProcess } from '@runway-portal/e2e-cluster';
import { dirname, join } from 'node:path';

/** `--require` for NODE_OPTIONS: the parent watch preloaded into Node children. */
export const PARENT_WATCH = join(
  dirname(require.resolve('@runway-portal/e2e-system/package.json')),
  'src',
  'parentWatch.cjs',
);

/** NODE_OPTIONS with the parent watch added to what is already there. */
export function nodeOptionsWithWatch(existing: string | undefined): string {
  const watch = `--require ${JSON.stringify(PARENT_WATCH)}`;
  return existing ? `${existing} ${watch}` : watch;
}

/** Starts a child of the local system, with a fresh log per run (`appendLog`: a restart keeps the log of the process it replaces). */
export function startService(
  name: string,
  command: string,
  args: string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    logPath: string;
    appendLog?: boolean;
  },
): ManagedProcess {
  return new ManagedProcess(name, command, args, options.logPath, {
    cwd: options.cwd,
    env: {
      ...options.env,
      NODE_OPTIONS: nodeOptionsWithWatch(options.env.NODE_OPTIONS),
    },
    truncateLog: !options.appendLog,
  });
}
