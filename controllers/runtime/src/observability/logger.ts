/**
 * Structured JSON logs, one object per line on stdout: what log collectors
 * in a cluster expect. Kept to a few lines rather than a dependency because
 * controllers only need levels, fields and child loggers.
 *
 * @public
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** @public */
export type LogFields = Record<string, unknown>;

/** @public */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

const levelRank: Record<LogLevel, number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
};

/** @public */
export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; default stdout. */
  write?: (line: string) => void;
  now?: () => Date;
}

/** @public */
export function createLogger(
  options: LoggerOptions = {},
  base: LogFields = {},
): Logger {
  const level = options.level ?? parseLevel(process.env.LOG_LEVEL) ?? 'info';
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const now = options.now ?? (() => new Date());
  const log = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (levelRank[lvl] < levelRank[level]) return;
    write(`${formatLogLine(lvl, msg, { ...base, ...fields }, now())}\n`);
  };
  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: fields =>
      createLogger({ level, write, now }, { ...base, ...fields }),
  };
}

/** A logger that drops everything (tests, benchmarks). @public */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/** @public */
export function parseLevel(value: string | undefined): LogLevel | undefined {
  const v = value?.toLowerCase();
  return v && v in levelRank ? (v as LogLevel) : undefined;
}

/** One JSON line; errors become `{message, name, stack}`; never throws. @public */
export function formatLogLine(
  level: LogLevel,
  msg: string,
  fields: LogFields,
  ts: Date,
): string {
  const record: LogFields = { level, ts: ts.toISOString(), msg };
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) record[k] = v instanceof Error ? serializeError(v) : v;
  }
  try {
    return JSON.stringify(record);
  } catch {
    // Circular or BigInt fields: keep the line, drop what cannot be written.
    return JSON.stringify({
      level,
      ts: record.ts,
      msg,
      fieldsError: 'fields not serializable',
    });
  }
}

function serializeError(err: Error): LogFields {
  return {
    name: err.name,
    message: err.message,
    stack: err.stack?.split('\n').slice(0, 6).join('\n'),
  };
}
