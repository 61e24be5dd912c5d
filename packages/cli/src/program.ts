/**
 * The `runway` command line (commander, as Backstage's own CLI). Each action
 * parses flags, builds a plan with the pure functions of ./bundles and hands
 * it to ./install or ./doctor; errors end as one line and exit code 1.
 */
import { Command, Option } from 'commander';
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  CATALOG,
  type CatalogEntry,
  catalogEntry,
  DEFAULT_NAMESPACE,
  defaultDeployDir,
} from './bundles/catalog';
import {
  loadCatalogBundle,
  loadPathBundle,
  loadUrlBundle,
} from './bundles/load';
import {
  buildPlan,
  bundleName,
  type BundleObjects,
  describeObject,
  outOfClusterPlan,
  type PlannedObject,
  providerBundleProblem,
} from './bundles/plan';
import {
  expectationsFromBundles,
  formatChecks,
  readClusterState,
  runChecks,
} from './doctor';
import { CliError, explainKubeError } from './errors';
import {
  applyPlan,
  type ObjectResult,
  planLines,
  summary,
} from './install/apply';
import {
  getOrUndefined,
  InferenceProviderConfigs,
  Deployments,
} from './install/kube';
import { type ClusterFlags, clientFor } from './install/kubeconfig';
import { type Reporter, streamReporter } from './install/reporter';
import { uninstall, type UninstallTarget } from './install/uninstall';

/** @public */
export interface ProgramIO {
  reporter: Reporter;
  /** Where `--output json` and lists go. */
  stdout: (text: string) => void;
  fetch?: typeof fetch;
}

interface GlobalFlags extends ClusterFlags {
  manifests?: string;
  namespace: string;
}

interface InstallFlags extends GlobalFlags {
  version?: string;
  dryRun?: boolean;
  wait?: boolean;
  timeout: string;
  forceConflicts?: boolean;
  /** false with --no-webhooks. */
  webhooks: boolean;
  outOfCluster?: boolean;
}

interface UninstallFlags extends GlobalFlags {
  force?: boolean;
  deleteCrds?: boolean;
  wait?: boolean;
  dryRun?: boolean;
  timeout: string;
}

function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new CliError(
      'bad input',
      `${flag} must be a number of seconds greater than 0, got "${value}"`,
    );
  return n * 1000;
}

function entriesNamed(
  names: string[],
  type: CatalogEntry['type'],
): CatalogEntry[] {
  return names.map(name => {
    const entry = catalogEntry(name, type);
    if (!entry) {
      const known = CATALOG.filter(e => e.type === type).map(e => e.name);
      throw new CliError(
        'bad input',
        `unknown ${type} "${name}" (known: ${known.join(', ')})${
          type === 'provider'
            ? '; or give a folder, a YAML file or an http(s) URL of a provider bundle'
            : ''
        }`,
      );
    }
    return entry;
  });
}

function printResults(
  io: ProgramIO,
  verb: string,
  results: ObjectResult[],
  dryRun?: boolean,
): void {
  for (const r of results) io.reporter.line(`  ${r.action}: ${r.object}`);
  io.reporter.line(
    `${dryRun ? '(dry run, nothing stored) ' : ''}${verb}: ${summary(results)}`,
  );
}

async function runInstall(
  io: ProgramIO,
  flags: InstallFlags,
  bundles: BundleObjects[],
  providers: string[],
  verb: 'install' | 'upgrade',
): Promise<void> {
  const bundled = buildPlan(bundles, {
    namespace: flags.namespace,
    version: flags.version,
  });
  const plan = (
    flags.outOfCluster ? outOfClusterPlan(bundled) : bundled
  ).filter(p => flags.webhooks || p.phase !== 'webhook');
  const client = clientFor(flags);
  try {
    if (verb === 'upgrade') await requireInstalled(client, plan);
    io.reporter.line(
      `${verb === 'install' ? 'Installing' : 'Upgrading'} ${bundles
        .map(b => b.component)
        .join(', ')} into ${client.server} (namespace ${flags.namespace}${
        flags.outOfCluster ? ', controllers run outside the cluster' : ''
      }${flags.dryRun ? ', server-side dry run' : ''}):`,
    );
    for (const line of planLines(plan)) io.reporter.line(line);
    const results = await applyPlan(
      client,
      plan,
      {
        namespace: flags.namespace,
        dryRun: flags.dryRun,
        wait: flags.wait,
        forceConflicts: flags.forceConflicts,
        timeoutMs: seconds(flags.timeout, '--timeout'),
        providers,
      },
      io.reporter,
    );
    printResults(io, verb, results, flags.dryRun);
  } finally {
    client.close();
  }
}

/**
 * `upgrade` of something not installed says so instead of installing it:
 * its Deployments are missing, or, out of the cluster (a plan without
 * Deployments), its ServiceAccounts.
 */
async function requireInstalled(
  client: ReturnType<typeof clientFor>,
  plan: PlannedObject[],
): Promise<void> {
  const deployments = plan.filter(p => p.object.kind === 'Deployment');
  const markers =
    deployments.length > 0
      ? deployments
      : plan.filter(p => p.object.kind === 'ServiceAccount');
  for (const { object } of markers) {
    let found;
    try {
      found = await getOrUndefined(
        client,
        object.kind === 'Deployment'
          ? Deployments
          : await client.resolve(object.apiVersion!, object.kind!),
        {
          namespace: object.metadata!.namespace!,
          name: object.metadata!.name!,
        },
      );
    } catch (err) {
      throw explainKubeError(
        err,
        `read ${describeObject(object)}`,
        client.server,
      );
    }
    if (!found)
      throw new CliError(
        'not installed',
        `${describeObject(
          object,
        )} is not installed: run runway controller install (or runway provider install) first`,
      );
  }
}

async function runUninstall(
  io: ProgramIO,
  flags: UninstallFlags,
  targets: UninstallTarget[],
): Promise<void> {
  const client = clientFor(flags);
  try {
    io.reporter.line(
      `Uninstalling ${targets.map(t => t.component).join(', ')} from ${
        client.server
      } (namespace ${flags.namespace}${
        flags.deleteCrds ? ', CRDs too' : ', CRDs kept'
      }):`,
    );
    const results = await uninstall(
      client,
      targets,
      {
        namespace: flags.namespace,
        force: flags.force,
        deleteCrds: flags.deleteCrds,
        wait: flags.wait,
        dryRun: flags.dryRun,
        timeoutMs: seconds(flags.timeout, '--timeout'),
      },
      io.reporter,
    );
    printResults(io, 'uninstall', results, flags.dryRun);
  } finally {
    client.close();
  }
}

function targetOf(
  entry: CatalogEntry,
  deployDir: string,
  flags: GlobalFlags,
): UninstallTarget {
  return {
    component: entry.name,
    plan: buildPlan([loadCatalogBundle(entry, deployDir)], {
      namespace: flags.namespace,
    }),
    guards: entry.guards,
    providerConfig: entry.type === 'provider' ? entry.name : undefined,
  };
}

/** A provider given as a name, a folder, a file or a URL: its objects, checked to be a provider bundle. */
async function providerBundle(
  io: ProgramIO,
  ref: string,
  deployDir: string,
  name?: string,
): Promise<{ bundle: BundleObjects; registration?: string }> {
  const entry = catalogEntry(ref, 'provider');
  if (entry)
    return {
      bundle: loadCatalogBundle(entry, deployDir),
      registration: entry.name,
    };
  const isUrl = /^https?:\/\//.test(ref);
  if (!isUrl && !ref.includes('/') && !ref.includes('.')) {
    // A name, and not one we know: entriesNamed throws, listing the known ones.
    entriesNamed([ref], 'provider');
  }
  let objects: KubeObject[];
  try {
    objects = isUrl ? await loadUrlBundle(ref, io.fetch) : loadPathBundle(ref);
  } catch (err) {
    throw new CliError('bad input', (err as Error).message);
  }
  const problem = providerBundleProblem(objects);
  if (problem)
    throw new CliError(
      'bad input',
      `${ref} is not a provider bundle: ${problem}`,
    );
  return {
    bundle: { component: name ?? bundleName(objects), objects },
    registration: name,
  };
}

const clusterOptions = (cmd: Command) =>
  cmd
    .option(
      '--kubeconfig <file>',
      'kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)',
    )
    .option(
      '--context <name>',
      'kubeconfig context (default: its current context)',
    )
    .option(
      '--namespace <name>',
      'namespace of the controllers',
      DEFAULT_NAMESPACE,
    )
    .option(
      '--manifests <folder>',
      'folder of the bundles (default: controllers/deploy of this checkout)',
    );

const installOptions = (cmd: Command) =>
  clusterOptions(cmd)
    .option(
      '--version <tag>',
      "image tag of Runway's controllers (default: the bundles' tag)",
    )
    .option(
      '--dry-run',
      'server-side dry run: show what would be created or changed, store nothing',
    )
    .option(
      '--wait',
      'wait until the controllers are available and the providers report ready',
    )
    .option('--timeout <seconds>', 'bound of each wait', '120')
    .option(
      '--force-conflicts',
      'take over fields another field manager owns (else such a conflict stops the install)',
    )
    .option(
      '--out-of-cluster',
      'for development and for controllers you run yourself: no Deployments (nor the Services in front of them), the webhook configurations empty for the controllers (--webhook-mode=url) to fill in; the rest (namespace, CRDs, ServiceAccounts, RBAC, admission policies) as bundled',
    )
    .option(
      '--no-webhooks',
      'leave out the webhook configurations, for controllers that register their own and may create them',
    );

const uninstallOptions = (cmd: Command) =>
  clusterOptions(cmd)
    .option(
      '--force',
      'uninstall even while resources it reconciles exist (they are listed, and orphaned)',
    )
    .option(
      '--delete-crds',
      'delete the CRDs too (and with them every resource of their kinds)',
    )
    .option('--dry-run', 'show what would be deleted, delete nothing')
    .option('--wait', 'wait until everything deleted is gone')
    .option('--timeout <seconds>', 'bound of the wait', '120');

/** What an action reports besides throwing (the doctor's unhealthy exit code). */
export interface Outcome {
  exitCode: number;
}

/** @public */
export function buildProgram(
  io: ProgramIO,
  outcome: Outcome = { exitCode: 0 },
): Command {
  const program = new Command('runway')
    .description(
      "Install, upgrade, check and remove Runway's controllers and providers in a Kubernetes cluster",
    )
    .showHelpAfterError()
    .configureOutput({
      writeOut: t => io.stdout(t),
      writeErr: t => io.reporter.line(t.trimEnd()),
    });
  const deployDirOf = (flags: GlobalFlags) =>
    flags.manifests ?? defaultDeployDir();

  const controller = program
    .command('controller')
    .description(
      'the core controller (and, once they ship, the models and stacks operators)',
    );
  const controllers = CATALOG.filter(e => e.type === 'controller').map(
    e => e.name,
  );
  for (const verb of ['install', 'upgrade'] as const) {
    installOptions(
      controller
        .command(`${verb} [names...]`)
        .description(
          `${
            verb === 'install' ? 'install' : 'upgrade to these bundles'
          } (default: core; known: ${controllers.join(
            ', ',
          )}); CRDs first, webhooks last`,
        ),
    ).action(async (names: string[], flags: InstallFlags) => {
      const entries = entriesNamed(
        names.length ? names : ['core'],
        'controller',
      );
      await runInstall(
        io,
        flags,
        entries.map(e => loadCatalogBundle(e, deployDirOf(flags))),
        [],
        verb,
      );
    });
  }
  uninstallOptions(
    controller
      .command('uninstall [names...]')
      .description(
        'remove a controller (default: core); refuses while its resources exist',
      ),
  ).action(async (names: string[], flags: UninstallFlags) => {
    const entries = entriesNamed(names.length ? names : ['core'], 'controller');
    await runUninstall(
      io,
      flags,
      entries.map(e => targetOf(e, deployDirOf(flags), flags)),
    );
  });

  const provider = program
    .command('provider')
    .description(
      'inference providers (KAITO, Dynamo, KubeRay, llm-d, or a third-party bundle)',
    );
  installOptions(
    provider
      .command('install <provider>')
      .description(
        `install a provider: a name (${CATALOG.filter(
          e => e.type === 'provider',
        )
          .map(e => e.name)
          .join(', ')}), a bundle folder, a YAML file or an http(s) URL`,
      )
      .option(
        '--name <name>',
        'name of a third-party provider (its InferenceProviderConfig; default: its Deployment name)',
      ),
  ).action(async (ref: string, flags: InstallFlags & { name?: string }) => {
    const { bundle, registration } = await providerBundle(
      io,
      ref,
      deployDirOf(flags),
      flags.name,
    );
    await runInstall(
      io,
      flags,
      [bundle],
      registration ? [registration] : [],
      'install',
    );
  });
  uninstallOptions(
    provider
      .command('uninstall <name>')
      .description(
        'remove a provider (its controller, RBAC and registration); refuses while deployments use it',
      ),
  ).action(async (name: string, flags: UninstallFlags) => {
    const entry = catalogEntry(name, 'provider');
    const target: UninstallTarget = entry
      ? targetOf(entry, deployDirOf(flags), flags)
      : {
          component: name,
          plan: [],
          guards: [
            {
              apiVersion: 'airunway.ai/v1alpha1',
              kind: 'ModelDeployment',
              plural: 'modeldeployments',
              byProvider: true,
            },
          ],
          providerConfig: name,
        };
    await runUninstall(io, flags, [target]);
  });
  clusterOptions(
    provider
      .command('list')
      .description('providers: installed, registered, ready'),
  ).action(async (flags: GlobalFlags) => {
    const client = clientFor(flags);
    try {
      const rows: string[][] = [
        ['NAME', 'INSTALLED', 'REGISTERED', 'READY', 'LAST HEARTBEAT'],
      ];
      let registered: Array<
        KubeObject & { status?: { ready?: boolean; lastHeartbeat?: string } }
      > = [];
      try {
        registered = (
          await client.list<
            KubeObject & {
              status?: { ready?: boolean; lastHeartbeat?: string };
            }
          >(InferenceProviderConfigs)
        ).items;
      } catch (err) {
        if (!/404|does not serve|NotFound/.test((err as Error).message))
          throw explainKubeError(
            err,
            'list InferenceProviderConfigs',
            client.server,
          );
      }
      const names = new Set([
        ...CATALOG.filter(e => e.type === 'provider').map(e => e.name),
        ...registered.map(r => r.metadata!.name!),
      ]);
      for (const name of names) {
        const entry = catalogEntry(name, 'provider');
        const deployment = entry
          ? loadCatalogBundle(entry, deployDirOf(flags)).objects.find(
              o => o.kind === 'Deployment',
            )?.metadata?.name
          : undefined;
        const installed = deployment
          ? Boolean(
              await getOrUndefined(client, Deployments, {
                namespace: flags.namespace,
                name: deployment,
              }).catch(err => {
                throw explainKubeError(err, 'read Deployments', client.server);
              }),
            )
          : undefined;
        const ipc = registered.find(r => r.metadata?.name === name);
        const installedText = installed ? 'yes' : 'no';
        rows.push([
          name,
          installed === undefined ? '-' : installedText,
          ipc ? 'yes' : 'no',
          ipc?.status?.ready ? 'yes' : 'no',
          ipc?.status?.lastHeartbeat ?? '-',
        ]);
      }
      const widths = rows[0].map((_, i) =>
        Math.max(...rows.map(r => r[i].length)),
      );
      io.stdout(
        `${rows
          .map(r =>
            r
              .map((c, i) => c.padEnd(widths[i]))
              .join('  ')
              .trimEnd(),
          )
          .join('\n')}\n`,
      );
    } finally {
      client.close();
    }
  });

  installOptions(
    program
      .command('install')
      .description(
        'install everything the catalog lists (core and every built-in provider)',
      )
      .requiredOption('--all', 'every controller and provider'),
  ).action(async (flags: InstallFlags) => {
    const deployDir = deployDirOf(flags);
    await runInstall(
      io,
      flags,
      CATALOG.map(e => loadCatalogBundle(e, deployDir)),
      flags.wait
        ? CATALOG.filter(e => e.type === 'provider').map(e => e.name)
        : [],
      'install',
    );
  });
  uninstallOptions(
    program
      .command('uninstall')
      .description('remove everything the catalog lists')
      .requiredOption('--all', 'every controller and provider'),
  ).action(async (flags: UninstallFlags) => {
    const deployDir = deployDirOf(flags);
    await runUninstall(
      io,
      flags,
      [...CATALOG].reverse().map(e => targetOf(e, deployDir, flags)),
    );
  });

  clusterOptions(
    program
      .command('doctor')
      .description(
        'check an installation: CRDs, controllers, webhooks, providers, gateway, operators; one line each with the fix',
      ),
  )
    .addOption(
      new Option('--output <format>', 'text or json')
        .choices(['text', 'json'])
        .default('text'),
    )
    .action(async (flags: GlobalFlags & { output: 'text' | 'json' }) => {
      const client = clientFor(flags);
      try {
        const expected = expectationsFromBundles(
          deployDirOf(flags),
          flags.namespace,
        );
        let state;
        try {
          state = await readClusterState(client, expected);
        } catch (err) {
          throw explainKubeError(err, 'read the cluster', client.server);
        }
        const checks = runChecks(state, expected);
        const healthy = !checks.some(c => c.status === 'fail');
        if (flags.output === 'json')
          io.stdout(
            `${JSON.stringify(
              {
                server: client.server,
                serverVersion: state.serverVersion,
                healthy,
                checks,
              },
              null,
              2,
            )}\n`,
          );
        else
          io.stdout(
            `${[
              ...formatChecks(checks),
              healthy ? 'healthy' : 'problems found',
            ].join('\n')}\n`,
          );
        if (!healthy) outcome.exitCode = 1;
      } finally {
        client.close();
      }
    });
  return program;
}

/** Runs the program; returns the exit code (errors printed as one line). @public */
export async function run(
  argv: string[],
  io: ProgramIO = {
    reporter: streamReporter(),
    stdout: t => process.stdout.write(t),
  },
): Promise<number> {
  const outcome: Outcome = { exitCode: 0 };
  const program = buildProgram(io, outcome);
  program.exitOverride();
  for (const sub of program.commands) {
    sub.exitOverride();
    for (const leaf of sub.commands) leaf.exitOverride();
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (err) {
    const code = (err as { code?: string; exitCode?: number }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      return code === 'commander.helpDisplayed' ||
        code === 'commander.help' ||
        code === 'commander.version'
        ? 0
        : 2;
    }
    const message =
      err instanceof CliError
        ? err.message
        : explainKubeError(err, 'runway').message;
    io.reporter.line(`runway: ${message}`);
    return 1;
  }
}
