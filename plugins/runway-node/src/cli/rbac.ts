/**
 * Prints the portal's RBAC as a Kubernetes List (JSON), for
 * `yarn workspace @runway-portal/plugin-runway-node rbac [--name N] [--namespace NS] [--list-secret-names] | kubectl apply -f -`.
 */
import { parseArgs } from 'node:util';
import { portalAccessManifests } from '../rbac';
import { DNS_LABEL } from '@runway-portal/plugin-runway-common';

/** The List to print for these command-line arguments; throws a usage error naming the bad flag. */
export function rbacList(args: string[]): {
  apiVersion: 'v1';
  kind: 'List';
  items: unknown[];
} {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      'list-secret-names': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  for (const [flag, value] of Object.entries(values)) {
    if (typeof value === 'string' && !DNS_LABEL.test(value)) {
      throw new Error(
        `--${flag} "${value}" is not a valid Kubernetes name: use lower-case letters, digits and '-'`,
      );
    }
  }
  return {
    apiVersion: 'v1',
    kind: 'List',
    items: portalAccessManifests({
      name: values.name,
      namespace: values.namespace,
      listSecretNames: values['list-secret-names'],
    }),
  };
}

if (require.main === module) {
  try {
    process.stdout.write(
      `${JSON.stringify(rbacList(process.argv.slice(2)), null, 2)}\n`,
    );
  } catch (err) {
    process.stderr.write(
      `${
        err instanceof Error ? err.message : String(err)
      }\nusage: rbac [--name runway-portal] [--namespace runway-system] [--list-secret-names]\n`,
    );
    process.exitCode = 2;
  }
}
