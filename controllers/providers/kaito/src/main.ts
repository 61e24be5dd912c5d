/**
 * The KAITO provider process. Flags and environment: see
 * @runway-portal/provider-shared's README (`--help` lists them).
 */
import { runProvider } from '@runway-portal/provider-shared';
import { kaitoProvider } from './definition';

runProvider(kaitoProvider).then(
  code => process.exit(code),
  err => {
    process.stderr.write(
      `kaito-provider: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
    process.exit(1);
  },
);
