/**
 * How a Model's source and sizes read to people: written once for the model
 * operator's status messages and the portal's rows and pages.
 */
import type { Model } from '../generated/model';
import { modelSourceType } from './naming';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `1536` → `1.5 KiB` (binary units, one decimal above bytes). @public */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** `HuggingFace owner/name@main`, `s3://bucket/key` or the URL; undefined without exactly one source. @public */
export function modelSourceText(
  source: Partial<Model['spec']['source']> | undefined,
): string | undefined {
  switch (modelSourceType(source)) {
    case 'huggingface':
      return `HuggingFace ${source!.huggingFace!.repoId}@${
        source!.huggingFace!.revision ?? 'main'
      }`;
    case 's3':
      return `s3://${source!.s3!.bucket}/${source!.s3!.key}`;
    case 'url':
      return source!.url!.url;
    default:
      return undefined;
  }
}
