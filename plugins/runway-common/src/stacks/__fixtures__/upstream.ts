/**
 * The upstream llama-stack data the tests and the benchmark read:
 * `../shared/upstream` from the repository root, or $RUNWAY_UPSTREAM_DIR.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

const REPO_ROOT = resolve(__dirname, '../../../../..');

export const UPSTREAM_DIR = process.env.RUNWAY_UPSTREAM_DIR ?? join(REPO_ROOT, '..', 'shared', 'upstream');

export function upstreamFile(...parts: string[]): string {
  return readFileSync(join(UPSTREAM_DIR, ...parts), 'utf8');
}

/** Every LlamaStackDistribution in the upstream samples, as [`<file> <name>`, object]. */
export function upstreamStackSamples(): Array<readonly [string, Record<string, any>]> {
  const dir = join(UPSTREAM_DIR, 'samples');
  return readdirSync(dir)
    .filter(file => file.startsWith('llamastack-'))
    .sort()
    .flatMap(file =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
        .map(doc => doc.toJS())
        .filter(obj => obj?.kind === 'LlamaStackDistribution')
        .map(obj => [`${file} ${obj.metadata.name}`, obj] as const),
    );
}
