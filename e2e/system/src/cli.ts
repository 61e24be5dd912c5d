/**
 * The local Runway Portal in one command:
 *
 *   yarn workspace @runway-portal/e2e-system start [--clusters dev,staging] [--no-backstage]
 *     [--step-delay-ms 2000] [--port 3000] [--backend-port 7007]
 *
 * Runs in the foreground; Ctrl-C (or SIGTERM/SIGHUP) stops everything it started.
 */
import { logTail } from '@runway-portal/e2e-cluster';
import { parseArgs } from 'node:util';
import {
  DEFAULT_CLUSTERS,
  startSystem,
  type RunningSystem,
  type SystemService,
} from './system';

export interface UpArgs {
  clusters: string[];
  backstage: boolean;
  stepDelayMs?: number;
  ports: { app?: number; backend?: number };
}

function portFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(
      `${flag} must be a port number from 1 to 65535; got "${value}"`,
    );
  }
  return port;
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Flags to options; throws a message naming the bad flag and the fix. */
export function parseUpArgs(argv: string[]): UpArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      clusters: { type: 'string' },
      'no-backstage': { type: 'boolean' },
      'step-delay-ms': { type: 'string' },
      port: { type: 'string' },
      'backend-port': { type: 'string' },
    },
  });
  if (positionals.length !== 1 || positionals[0] !== 'up') {
    throw new Error(
      'usage: up [--clusters dev,staging] [--no-backstage] [--step-delay-ms 2000] [--port 3000] [--backend-port 7007]',
    );
  }
  const clusters = values.clusters
    ? values.clusters
        .split(',')
        .map(s => s.trim())
        .filter(Boolean)
    : DEFAULT_CLUSTERS;
  const bad = clusters.filter(c => !NAME.test(c) || c.length > 40);
  if (clusters.length === 0 || bad.length > 0) {
    throw new Error(
      `--clusters must list cluster names of lower-case letters, digits and "-" (e.g. dev,staging); not valid: ${
        bad.join(', ') || '(empty)'
      }`,
    );
  }
  if (new Set(clusters).size !== clusters.length) {
    throw new Error(`--clusters names a cluster twice: ${clusters.join(',')}`);
  }
  let stepDelayMs: number | undefined;
  if (values['step-delay-ms'] !== undefined) {
    stepDelayMs = Number(values['step-delay-ms']);
    if (!Number.isInteger(stepDelayMs) || stepDelayMs < 0) {
      throw new Error(
        `--step-delay-ms must be a whole number of milliseconds, 0 or more; got "${values['step-delay-ms']}"`,
      );
    }
  }
  const ports = {
    app: portFlag('--port', values.port),
    backend: portFlag('--backend-port', values['backend-port']),
  };
  if (ports.app !== undefined && ports.app === ports.backend) {
    throw new Error('--port and --backend-port must differ');
  }
  return { clusters, backstage: !values['no-backstage'], stepDelayMs, ports };
}

async function main(): Promise<void> {
  let args: UpArgs;
  try {
    args = parseUpArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`runway system: ${(err as Error).message}\n`);
    process.exit(2);
  }
  let system: RunningSystem | undefined;
  let shuttingDown = false;
  const shutdown = async (reason: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    process.stdout.write(
      `\n${reason}: stopping everything the local system started...\n`,
    );
    await system?.stop();
    process.stdout.write('stopped.\n');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void shutdown(signal));
  }
  try {
    system = await startSystem({
      clusters: args.clusters,
      backstage: args.backstage,
      stepDelayMs: args.stepDelayMs,
      ports: Object.fromEntries(
        Object.entries(args.ports).filter(([, v]) => v !== undefined),
      ),
    });
  } catch (err) {
    if (shuttingDown) return;
    process.stderr.write(
      `runway system: failed to start: ${(err as Error).message}\n`,
    );
    process.exit(1);
  }
  if (shuttingDown) return;
  const reportExit = async (s: SystemService, exit: unknown) => {
    if (shuttingDown) return;
    process.stderr.write(
      `\n${s.cluster ? `${s.cluster}/` : ''}${
        s.name
      } exited unexpectedly (${JSON.stringify(
        exit,
      )}; a controller is restarted, as the kubelet would); last lines of ${
        s.logPath
      }:\n${await logTail(s.logPath, 15)}\n`,
    );
  };
  system.services.forEach(
    s => void s.service.exited.then(exit => reportExit(s, exit)),
  );
  const lines = [
    '',
    'Runway Portal is running.',
    system.portalUrl
      ? `  Open ${system.portalUrl}`
      : '  Backstage not started (--no-backstage).',
    ...system.clusters.map(
      c => `  cluster ${c.name}: KUBECONFIG=${c.kubeconfigPath}`,
    ),
    ...system.userClusters.map(
      c => `  cluster ${c} (from app-config.local.yaml)`,
    ),
    ...system.missing.map(m => `  not started: ${m}`),
    `  logs: ${system.stateDir}/logs`,
    '  Press Ctrl-C to stop everything.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (require.main === module) {
  void main();
}
