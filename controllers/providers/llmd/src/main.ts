/**
 * The llm-d provider process. Flags and environment (kubeconfig, ports,
 * finalizer timeout...) are those of the shared loop: run with --help.
 */
import { runProvider } from '@runway-portal/provider-shared';
import { llmdProvider } from './definition';

runProvider(llmdProvider).then(
  code => process.exit(code),
  err => {
    process.stderr.write(
      `llmd-provider: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
    process.exit(1);
  },
);
