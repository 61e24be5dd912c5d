import type { LoggerService } from '@backstage/backend-plugin-api';
import type { Logger, LogFields } from '@runway-portal/controller-runtime';

/** Errors in log fields become their message: Backstage's logger only takes JSON. */
function toMeta(
  fields: LogFields | undefined,
): Record<string, string | number | boolean | null> | undefined {
  if (!fields) return undefined;
  const meta: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (v instanceof Error) meta[k] = v.message;
    else if (
      v === null ||
      typeof v === 'string' ||
      typeof v === 'number' ||
      typeof v === 'boolean'
    )
      meta[k] = v;
    else meta[k] = JSON.stringify(v);
  }
  return meta;
}

/** The controller runtime's logger interface on top of Backstage's logger service. */
export function runtimeLogger(logger: LoggerService): Logger {
  return {
    debug: (msg, fields) => logger.debug(msg, toMeta(fields)),
    info: (msg, fields) => logger.info(msg, toMeta(fields)),
    warn: (msg, fields) => logger.warn(msg, toMeta(fields)),
    error: (msg, fields) => logger.error(msg, toMeta(fields)),
    child: fields => runtimeLogger(logger.child(toMeta(fields) ?? {})),
  };
}
