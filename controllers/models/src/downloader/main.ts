/**
 * The downloader process: what every download Job runs (its image is built
 * from the Dockerfile beside this file). Settings from the environment (see
 * config.ts). Exit codes: 0 done; 1 failed, a retry may help (network, a
 * short read, a checksum mismatch); 2 failed, retrying cannot help (too big
 * for spec.storage.size, 401, 404, bad settings), which fails the Job at once.
 * The last line of a failed run is `{"event":"error",...}` with the reason.
 */
import { formatLine } from '../progress';
import { readConfig } from './config';
import { runDownload } from './download';
import { DownloadError } from './http';

export async function main(
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const parsed = readConfig(env);
  if (!parsed.ok) {
    out(formatLine({ event: 'error', message: parsed.error, permanent: true }));
    return 2;
  }
  try {
    await runDownload(parsed.config, out);
    return 0;
  } catch (err) {
    const permanent = err instanceof DownloadError && err.permanent;
    const message = err instanceof Error ? err.message : String(err);
    out(formatLine({ event: 'error', message, permanent }));
    return permanent ? 2 : 1;
  }
}

if (require.main === module) {
  main().then(code => {
    process.exitCode = code;
  });
}
