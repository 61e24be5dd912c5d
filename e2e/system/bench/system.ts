/** The local system as the system benchmarks start it, and their progress lines. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSystem, startSystem } from '../src/system';
import { nodesFor } from '../src/workloads';

/** A progress line on stderr (stdout holds only the report). */
export const progress = (line: string) =>
  process.stderr.write(`[bench] ${line}\n`);

/**
 * Runs `work` on the local system: one cluster named `cluster` with nodes
 * for `deployments`, the core, the four providers and the simulators as
 * processes (no portal, no local config), every controller started. Stops
 * the system afterwards, and on SIGINT, SIGTERM or SIGHUP (exit 130).
 */
export async function withBenchSystem<T>(
  settings: {
    cluster: string;
    deployments: number;
    stepDelayMs: number;
    /** The API server serves /debug/pprof (off in every other cluster). */
    apiServerProfiling?: boolean;
  },
  work: (system: RunningSystem) => Promise<T>,
): Promise<T> {
  const stateDir = mkdtempSync(join(tmpdir(), `runway-${settings.cluster}-`));
  let system: RunningSystem | undefined;
  const stopAll = async () => {
    await system?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      progress(`${signal}: stopping the system`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  try {
    progress(
      `starting the system: one cluster, the core, four providers, the simulators (logs in ${stateDir}/logs)`,
    );
    system = await startSystem({
      clusters: [settings.cluster],
      backstage: false,
      stepDelayMs: settings.stepDelayMs,
      stateDir,
      honourLocalConfig: false,
      log: progress,
      clusterOptions: {
        nodes: nodesFor(settings.deployments),
        // Two or three Services per deployment: the harness's default /24 range holds only 253.
        extraArgs: {
          'kube-apiserver': [
            '--service-cluster-ip-range=10.0.0.0/16',
            ...(settings.apiServerProfiling ? ['--profiling=true'] : []),
          ],
        },
      },
    });
    if (system.missing.length > 0)
      throw new Error(
        `not every controller started:\n${system.missing.join('\n')}`,
      );
    return await work(system);
  } finally {
    progress('stopping the system');
    await stopAll();
  }
}
