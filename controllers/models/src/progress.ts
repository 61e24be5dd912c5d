/**
 * The downloader's machine-readable log lines, written by
 * `src/downloader` and read back by the controller from the download pod's
 * log (`pods/log`). One JSON object per line with an `event` field; other
 * lines are ignored, so a human can read the log too.
 */

export interface ProgressLine {
  event: 'progress';
  bytesDone: number;
  /** Unknown only when the source gave no size (never for our three sources). */
  bytesTotal?: number;
  bytesPerSecond: number;
  etaSeconds?: number;
  /** 0-100, whole number. */
  percent?: number;
  file?: string;
}

export interface DoneLine {
  event: 'done';
  bytesTotal: number;
  files: number;
  seconds: number;
}

export interface ErrorLine {
  event: 'error';
  message: string;
  /** true: retrying cannot help (exit code 2). */
  permanent: boolean;
}

export type DownloaderLine = ProgressLine | DoneLine | ErrorLine;

export function formatLine(line: DownloaderLine): string {
  return JSON.stringify(line);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** One log line as a downloader line, or undefined for anything else. */
export function parseLine(text: string): DownloaderLine | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: any;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (
    value?.event === 'progress' &&
    isNumber(value.bytesDone) &&
    isNumber(value.bytesPerSecond)
  )
    return value;
  if (value?.event === 'done' && isNumber(value.bytesTotal)) return value;
  if (value?.event === 'error' && typeof value.message === 'string')
    return { ...value, permanent: value.permanent === true };
  return undefined;
}

/** What a pod log says: the last progress line and, if it ended, how. */
export interface LogSummary {
  progress?: ProgressLine;
  done?: DoneLine;
  error?: ErrorLine;
}

export function summarizeLog(log: string): LogSummary {
  const summary: LogSummary = {};
  for (const text of log.split('\n')) {
    const line = parseLine(text);
    if (line?.event === 'progress') summary.progress = line;
    else if (line?.event === 'done') summary.done = line;
    else if (line?.event === 'error') summary.error = line;
  }
  return summary;
}

/** Whole percent, never 100 before the end (rounding down). */
export function percentOf(
  done: number,
  total: number | undefined,
): number | undefined {
  if (!total) return undefined;
  return Math.max(0, Math.min(100, Math.floor((done / total) * 100)));
}
