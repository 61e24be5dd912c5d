/**
 * The download itself: plan (every file and its size), check it fits in
 * spec.storage.size, then per file resume what a previous attempt left
 * (`Range`), verify size and sha256, and move it into place; a marker file
 * written last says the whole model is there. Progress lines go to `out`.
 *
 * Layout under `dest`: finished files at their paths; partial files under
 * `.partial/`; the marker `.airunway-download.json` (files, sizes, source).
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type http from 'node:http';
import { formatLine, type DownloaderLine, percentOf } from '../progress';
import type { DownloaderConfig, DownloadSource } from './config';
import { DownloadError, readText, send, totalSizeOf } from './http';
import { planDownload, type PlannedFile } from './plan';

export const MARKER_FILE = '.airunway-download.json';
export const PARTIAL_DIR = '.partial';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
function human(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${UNITS[u]}`;
}

/** The smallest `<n>Gi` that holds `bytes` (what to set spec.storage.size to). */
export function suggestedSize(bytes: number): string {
  return `${Math.max(1, Math.ceil((bytes * 1.05) / 1024 ** 3))}Gi`;
}

function sourceId(source: DownloadSource): string {
  if (source.type === 'huggingface')
    return `huggingface:${source.repoId}@${source.revision}`;
  if (source.type === 's3') return `s3://${source.bucket}/${source.key}`;
  return source.url;
}

/** A relative path that stays inside dest (a listing could name `../x`). */
function safeJoin(dest: string, relative: string): string {
  const target = path.resolve(dest, relative);
  if (!target.startsWith(path.resolve(dest) + path.sep)) {
    throw new DownloadError(
      `refusing to write ${JSON.stringify(
        relative,
      )}: it points outside ${dest}`,
      true,
    );
  }
  return target;
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(file)).size;
  } catch {
    return undefined;
  }
}

async function hashFile(file: string, hash: Hash): Promise<void> {
  for await (const chunk of fs.createReadStream(file, {
    highWaterMark: 1 << 20,
  }))
    hash.update(chunk as Buffer);
}

class Progress {
  private done = 0;
  private lastBytes = 0;
  private lastAt = Date.now();
  private speed = 0;
  private timer?: NodeJS.Timeout;
  file?: string;

  constructor(
    private readonly total: number | undefined,
    private readonly emit: (line: DownloaderLine) => void,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => this.report(), intervalMs);
    this.timer.unref();
  }

  add(bytes: number) {
    this.done += bytes;
  }

  get bytesDone() {
    return this.done;
  }

  report() {
    const now = Date.now();
    const seconds = (now - this.lastAt) / 1000;
    if (seconds > 0) {
      const recent = (this.done - this.lastBytes) / seconds;
      // Smoothed, so one slow second does not swing the ETA.
      this.speed = this.speed === 0 ? recent : 0.5 * this.speed + 0.5 * recent;
    }
    this.lastAt = now;
    this.lastBytes = this.done;
    const remaining =
      this.total === undefined
        ? undefined
        : Math.max(0, this.total - this.done);
    this.emit({
      event: 'progress',
      bytesDone: this.done,
      ...(this.total === undefined ? {} : { bytesTotal: this.total }),
      bytesPerSecond: Math.round(this.speed),
      ...(remaining !== undefined && this.speed > 0
        ? { etaSeconds: Math.round(remaining / this.speed) }
        : {}),
      ...(this.total ? { percent: percentOf(this.done, this.total) } : {}),
      ...(this.file ? { file: this.file } : {}),
    });
  }

  stop() {
    clearInterval(this.timer);
  }
}

/** Chunks gathered before one write: few system calls, and no copy (writev). */
const WRITE_BATCH_BYTES = 1 << 20;

/** Writes every byte of `chunks` at the file's end (writev; the rest again if the kernel took less). */
function writeAll(fd: number, chunks: Buffer[], bytes: number): void {
  const n = fs.writevSync(fd, chunks);
  if (n >= bytes) return;
  const rest = Buffer.concat(chunks, bytes).subarray(n);
  for (let at = 0; at < rest.length; )
    at += fs.writeSync(fd, rest, at, rest.length - at);
}

/**
 * Appends the response body to `file`. The writes are synchronous, in
 * batches of WRITE_BATCH_BYTES, as curl writes: this process does nothing
 * else meanwhile, and each asynchronous write would cost a trip through
 * libuv's thread pool per socket chunk (64 KiB), which made the transfer
 * wait on the disk queue instead of the socket. On a dropped connection
 * the bytes received are written before the error is thrown, so the next
 * attempt resumes.
 */
function writeBody(
  res: http.IncomingMessage,
  file: string,
  offset: number,
  options: {
    onChunk: (chunk: Buffer) => void;
    limit?: number;
    what: string;
    storageSize: string;
  },
): Promise<number> {
  return new Promise((resolve, reject) => {
    let written = offset;
    let fd: number;
    try {
      fd = fs.openSync(file, offset > 0 ? 'a' : 'w');
    } catch (err) {
      res.destroy();
      reject(
        new DownloadError(
          `${options.what}: could not open ${file}: ${(err as Error).message}`,
          false,
        ),
      );
      return;
    }
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let settled = false;
    const flush = () => {
      if (batchBytes === 0) return;
      const chunks = batch;
      const bytes = batchBytes;
      batch = [];
      batchBytes = 0;
      writeAll(fd, chunks, bytes);
    };
    const writeError = (err: unknown) =>
      new DownloadError(
        `${options.what}: could not write ${file}: ${(err as Error).message}`,
        false,
      );
    const finish = (failure?: Error) => {
      if (settled) return;
      settled = true;
      let error = failure;
      try {
        flush(); // also after a failure: the bytes received are kept for the next attempt
      } catch (err) {
        error = error ?? writeError(err);
      }
      fs.closeSync(fd);
      if (error) {
        res.destroy();
        reject(error);
      } else {
        resolve(written);
      }
    };
    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      written += chunk.length;
      options.onChunk(chunk);
      if (options.limit !== undefined && written > options.limit) {
        written -= chunk.length;
        finish(
          new DownloadError(
            `${options.what} is larger than spec.storage.size (${options.storageSize}): raise spec.storage.size`,
            true,
          ),
        );
        return;
      }
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes < WRITE_BATCH_BYTES) return;
      try {
        flush();
      } catch (err) {
        finish(writeError(err));
      }
    });
    res.on('end', () => finish());
    res.on('error', err =>
      finish(
        new DownloadError(
          `${options.what}: the connection dropped after ${written} bytes (${err.message}); retrying resumes from there`,
          false,
        ),
      ),
    );
    res.on('close', () => {
      if (!res.complete)
        finish(
          new DownloadError(
            `${options.what}: the connection dropped after ${written} bytes; retrying resumes from there`,
            false,
          ),
        );
    });
  });
}

/** Downloads one file into `.partial/`, resuming; verifies; moves it into place. */
async function downloadFile(
  file: PlannedFile,
  config: DownloaderConfig,
  progress: Progress,
  log: (text: string) => void,
): Promise<number> {
  const final = safeJoin(config.dest, file.path);
  const partial = safeJoin(path.join(config.dest, PARTIAL_DIR), file.path);
  const finalSize = await sizeOf(final);
  if (
    finalSize !== undefined &&
    file.size !== undefined &&
    finalSize === file.size
  ) {
    progress.add(finalSize);
    return finalSize; // moved into place by an earlier attempt, after its size and sha256 were checked
  }
  await fsp.mkdir(path.dirname(partial), { recursive: true });
  let have = (await sizeOf(partial)) ?? 0;
  if (file.size !== undefined && have > file.size) {
    await fsp.truncate(partial, 0);
    have = 0;
  }
  let hash = file.sha256 ? createHash('sha256') : undefined;
  if (have > 0 && hash) await hashFile(partial, hash);

  if (file.size === undefined || have < file.size) {
    const res = await send({
      url: file.url,
      headers: u => ({
        ...file.headers(u),
        ...(have > 0 ? { range: `bytes=${have}-` } : {}),
      }),
    });
    const status = res.statusCode ?? 0;
    if (status === 416 && file.size !== undefined && have === file.size) {
      res.resume();
    } else if (status !== 200 && status !== 206) {
      const body = await readText(res).catch(() => '');
      throw new DownloadError(
        `${file.path}: the server answered HTTP ${status}${
          body ? ` (${body.slice(0, 200).replace(/\s+/g, ' ')})` : ''
        }`,
        status === 404 || status === 401 || status === 403,
        status,
      );
    } else {
      if (status === 200 && have > 0) {
        // The server ignored Range: start the file again.
        log(
          `${file.path}: the server does not resume (no Range support), starting it again`,
        );
        have = 0;
        if (file.sha256) hash = createHash('sha256');
      }
      const announced = totalSizeOf(res);
      if (
        file.size !== undefined &&
        announced !== undefined &&
        announced !== file.size
      ) {
        res.resume();
        throw new DownloadError(
          `${file.path}: the server announces ${announced} bytes but the listing said ${file.size}`,
          false,
        );
      }
      progress.add(have);
      have = await writeBody(res, partial, have, {
        onChunk: chunk => {
          progress.add(chunk.length);
          hash?.update(chunk);
        },
        limit: file.size === undefined ? config.storageBytes : undefined,
        what: file.path,
        storageSize: config.storageSize,
      });
    }
  } else {
    progress.add(have);
  }

  if (file.size !== undefined && have !== file.size) {
    throw new DownloadError(
      `${file.path}: got ${have} bytes, expected ${file.size}; the connection ended early, retrying resumes it`,
      false,
    );
  }
  if (hash && file.sha256) {
    const actual = hash.digest('hex');
    if (actual !== file.sha256) {
      await fsp.rm(partial, { force: true });
      throw new DownloadError(
        `${file.path}: sha256 ${actual} does not match the hub's ${file.sha256}; the partial file was removed, retrying downloads it again`,
        false,
      );
    }
  }
  await fsp.mkdir(path.dirname(final), { recursive: true });
  await fsp.rename(partial, final);
  return have;
}

export interface DownloadResult {
  files: number;
  bytes: number;
  seconds: number;
  /** Already complete from an earlier run (the marker matched). */
  alreadyComplete: boolean;
}

/**
 * Runs one download. Throws `DownloadError` (its `permanent` decides the
 * exit code); writes progress, done and human lines through `out`.
 */
export async function runDownload(
  config: DownloaderConfig,
  out: (line: string) => void,
): Promise<DownloadResult> {
  const started = Date.now();
  const emit = (line: DownloaderLine) => out(formatLine(line));
  const log = (text: string) => out(text);
  log(`planning ${sourceId(config.source)} into ${config.dest}`);
  const files = await planDownload(config.source);
  const known = files.every(f => f.size !== undefined);
  const total = files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  log(`${files.length} file(s), ${known ? human(total) : 'size unknown'}`);

  const marker = path.join(config.dest, MARKER_FILE);
  const previous = await fsp
    .readFile(marker, 'utf8')
    .then(JSON.parse)
    .catch(() => undefined);
  const manifest = {
    source: sourceId(config.source),
    files: files.map(f => ({
      path: f.path,
      size: f.size,
      ...(f.sha256 ? { sha256: f.sha256 } : {}),
    })),
  };
  if (
    previous &&
    JSON.stringify(previous.source) === JSON.stringify(manifest.source) &&
    JSON.stringify(previous.files) === JSON.stringify(manifest.files)
  ) {
    emit({ event: 'done', bytesTotal: total, files: files.length, seconds: 0 });
    return {
      files: files.length,
      bytes: total,
      seconds: 0,
      alreadyComplete: true,
    };
  }

  // Fail fast, before writing: the declared size is enforced, and the volume's free space.
  if (known && total > config.storageBytes) {
    throw new DownloadError(
      `the model needs ${human(total)} (${
        files.length
      } file(s)) but spec.storage.size is ${config.storageSize} (${human(
        config.storageBytes,
      )}): set spec.storage.size to at least ${suggestedSize(total)}`,
      true,
    );
  }
  await fsp.mkdir(config.dest, { recursive: true });
  await fsp.rm(marker, { force: true });
  if (known) {
    const stats = await fsp.statfs(config.dest).catch(() => undefined);
    let already = 0;
    for (const f of files)
      already +=
        (await sizeOf(path.join(config.dest, PARTIAL_DIR, f.path))) ?? 0;
    const free = stats ? stats.bavail * stats.bsize : undefined;
    if (free !== undefined && free + already < total) {
      throw new DownloadError(
        `the model needs ${human(total)} but the volume has ${human(
          free,
        )} free: set spec.storage.size to at least ${suggestedSize(
          total,
        )} (or free the volume)`,
        true,
      );
    }
  }

  const progress = new Progress(
    known ? total : undefined,
    emit,
    config.progressIntervalMs,
  );
  let bytes = 0;
  try {
    progress.report();
    for (const file of files) {
      progress.file = file.path;
      bytes += await downloadFile(file, config, progress, log);
    }
    progress.file = undefined;
    progress.report();
  } finally {
    progress.stop();
  }
  await fsp.rm(path.join(config.dest, PARTIAL_DIR), {
    recursive: true,
    force: true,
  });
  // Written last, atomically: its presence means every file above is complete and verified.
  await fsp.writeFile(
    `${marker}.tmp`,
    JSON.stringify(
      { ...manifest, finishedAt: new Date().toISOString() },
      null,
      2,
    ),
  );
  await fsp.rename(`${marker}.tmp`, marker);
  const seconds = (Date.now() - started) / 1000;
  emit({
    event: 'done',
    bytesTotal: bytes,
    files: files.length,
    seconds: Math.round(seconds * 1000) / 1000,
  });
  return { files: files.length, bytes, seconds, alreadyComplete: false };
}
