/** The wire log: one JSON line per proxied request, appended to `<state>/wire.jsonl`. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { crashArmed, crashPoint } from './crash-point.js';
import { FILE_MODE, type StateDir } from './layout.js';
import { hasErrnoCode, StateError } from './state-error.js';
import { errorText } from '../errors.js';

/**
 * Written (with the next record, in one write) after a line that a crash cut short, so that
 * verify can tell a torn line that was closed on restart from a corrupt one.
 */
export const WIRE_TORN_MARKER = { ctxshed: 'torn-line', note: 'the line above was cut short by a crash' };
/**
 * Written instead of WIRE_TORN_MARKER when this process's own write was cut short by a full disk
 * (ENOSPC, EDQUOT): the same kind of line for the readers, but it does not call that a crash.
 */
export const WIRE_DISK_FULL_MARKER = { ctxshed: 'torn-line', cause: 'disk_full', note: 'the line above was cut short: the disk was full' };

/**
 * How long a wire line may wait for the lines after it, to go out in one write: the wire log is a
 * log, not the source of truth (docs/design.md "Wire record"), so a kill -9 may cost the last few tens
 * of milliseconds of lines; a clean stop (`close`) writes them all. A proxy under load writes once
 * per batch, not once per request, and never in the way of the request after.
 */
export const WIRE_FLUSH_DELAY_MS = 50;
/** A batch this big goes out at once (still one write, so it never interleaves with another process's). */
export const WIRE_BATCH_MAX_BYTES = 64 * 1024;

interface Batch {
  readonly lines: string[];
  bytes: number;
  readonly done: Promise<void>;
  settle(error?: unknown): void;
}

/**
 * Appends wire records through one open file: each record is one line; lines wait up to
 * `flushDelayMs` to be written together, batches are serialized and each is one write().
 */
export class WireLog {
  #handle: Promise<fs.FileHandle> | undefined;
  #queue: Promise<void> = Promise.resolve();
  #tailChecked = false;
  #batch: Batch | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** This log's last failed write left part of its bytes in the file because the disk was full. */
  #cutByFullDisk = false;

  constructor(
    readonly path: string,
    readonly flushDelayMs: number = WIRE_FLUSH_DELAY_MS,
  ) {}

  /**
   * Appends `record` as one line; resolves once its batch is written. Rejects with
   * STATE_WIRE_FAILED (a record that does not serialize at once, alone), and later appends still run.
   */
  append(record: object): Promise<void> {
    let line: string | undefined;
    try {
      line = JSON.stringify(record) as string | undefined;
      if (typeof line !== 'string') throw new TypeError('the record does not serialize to JSON');
    } catch (error) {
      return Promise.reject(this.#failed(error));
    }
    const batch = (this.#batch ??= newBatch());
    batch.lines.push(line);
    batch.bytes += line.length + 1;
    if (batch.bytes >= WIRE_BATCH_MAX_BYTES || this.flushDelayMs <= 0) void this.flush();
    // Not unref'd: a process that ends without close() still writes its last lines first.
    else this.#timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
    return batch.done;
  }

  /** Writes the lines waiting now, without waiting for the delay; resolves when they are written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#batch;
    this.#batch = undefined;
    if (batch === undefined) return this.#queue;
    const job = this.#queue.then(() => this.#write(batch.lines));
    this.#queue = job.catch(() => undefined);
    job.then(
      () => batch.settle(),
      (error: unknown) => batch.settle(error),
    );
    return this.#queue;
  }

  /** Writes the lines waiting, then closes the file; a later append opens it again. */
  async close(): Promise<void> {
    await this.flush();
    const handle = this.#handle;
    this.#handle = undefined;
    this.#tailChecked = false;
    if (handle !== undefined) await (await handle).close();
  }

  async #write(lines: readonly string[]): Promise<void> {
    const progress = { bytes: 0 };
    try {
      const handle = await this.#open();
      // Another process's writes may land between ours, so a torn tail is only looked for once,
      // for the line a crash of an earlier run (or our own write, on a full disk) may have left.
      const torn = !this.#tailChecked && (await endsTorn(handle));
      const marker = this.#cutByFullDisk ? WIRE_DISK_FULL_MARKER : WIRE_TORN_MARKER;
      const prefix = torn ? `\n${JSON.stringify(marker)}\n` : '';
      this.#tailChecked = true;
      const bytes = Buffer.from(`${prefix}${lines.join('\n')}\n`, 'utf8');
      // O_APPEND and a single write(): two processes' lines never interleave within a line.
      if (crashArmed('wire-mid-append')) {
        await handle.write(bytes.subarray(0, bytes.length >> 1));
        crashPoint('wire-mid-append');
      }
      await writeAll(handle, bytes, progress);
      this.#cutByFullDisk = false;
    } catch (error) {
      this.#tailChecked = false; // a failed write may itself have left a torn line
      // What cut it decides the repair's words: a full disk is no crash. A write that put nothing
      // in the file leaves the last one's cause as it was.
      if (progress.bytes > 0) this.#cutByFullDisk = isDiskFull(error);
      throw this.#failed(error);
    }
  }

  #failed(error: unknown): StateError {
    return new StateError('STATE_WIRE_FAILED', `could not append to ${this.path}: ${errorText(error)}`, { cause: error });
  }

  #open(): Promise<fs.FileHandle> {
    this.#handle ??= openPrivate(this.path).catch((error: unknown) => {
      this.#handle = undefined; // so the next append tries again, e.g. once the disk has room
      throw error;
    });
    return this.#handle;
  }
}

/** Appends one record to `<state>/wire.jsonl`, opening and closing the file around it. */
export async function appendWireRecord(state: StateDir, record: object): Promise<void> {
  const log = new WireLog(state.wirePath);
  try {
    await log.append(record);
  } finally {
    await log.close();
  }
}

/**
 * Writes all of `bytes`, counting into `progress` what went out. A regular file takes a write
 * short only when something stops it (a full disk, a size limit): writing the rest then fails
 * with that error's code, so the caller learns why, rather than just "short".
 */
async function writeAll(handle: fs.FileHandle, bytes: Buffer, progress: { bytes: number }): Promise<void> {
  while (progress.bytes < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, progress.bytes, bytes.length - progress.bytes);
    if (bytesWritten === 0) throw new Error(`short write: ${progress.bytes} of ${bytes.length} bytes`);
    progress.bytes += bytesWritten;
  }
}

function isDiskFull(error: unknown): boolean {
  return hasErrnoCode(error, 'ENOSPC') || hasErrnoCode(error, 'EDQUOT');
}

function newBatch(): Batch {
  let settle: (error?: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  return { lines: [], bytes: 0, done, settle };
}

async function openPrivate(file: string): Promise<fs.FileHandle> {
  // O_NOFOLLOW: never append through a symlink planted in the state directory.
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
  const handle = await fs.open(file, flags, FILE_MODE);
  // The umask applies to the mode of open(); set it exactly, as for every state file.
  await handle.chmod(FILE_MODE).catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  return handle;
}

/** How long a tail that looks torn is given to finish before it is taken for a crash's. */
export const TORN_RECHECK_MS = 20;

/**
 * Whether the file ends inside a line, as a crash mid-append leaves it. Another process's append
 * is one write, but its bytes (and the file's size) appear page by page, so a tail read in the
 * middle of it looks torn too. A crash's torn tail stays as it is: so a tail that looks torn is
 * looked at again a moment later, and counts only if the file has not grown meanwhile.
 */
async function endsTorn(handle: fs.FileHandle): Promise<boolean> {
  const first = await tailOf(handle);
  if (first.size === 0 || first.last === 0x0a) return false;
  await new Promise((resolve) => setTimeout(resolve, TORN_RECHECK_MS));
  const again = await tailOf(handle);
  return again.size === first.size && again.last !== 0x0a;
}

async function tailOf(handle: fs.FileHandle): Promise<{ size: number; last: number | undefined }> {
  const { size } = await handle.stat();
  if (size === 0) return { size, last: undefined };
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return { size, last: last[0] };
}
