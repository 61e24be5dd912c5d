import { createHash } from 'node:crypto';

/**
 * A digest of a JSON value, to remember what was last sent per deployment
 * without keeping a copy: 1,000 deployments' gateway objects are about 6 MB
 * as text, their digests 44 KB.
 */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64');
}
