/** The wire log: one JSON line per proxied request, appended to `<state>/wire.jsonl`. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { crashArmed, crashPoint } from './crash-point.js';
import { FILE_MODE, type StateDir } from './layout.js';
import { StateError } from './state-error.js';
import { errorText } from '../errors.js';

/**
 * Written (with the next record, in one write) after a line that a crash cut short, so that
 * verify can tell a torn line that was closed on restart from a corrupt one.
 */
export const WIRE_TORN_MARKER = { ctxshed: 'torn-line', note: 'the line above was cut short by a crash' };

/** Appends wire records through one open file; appends are serialized and each is one write(). */
export class WireLog {
  #handle: Promise<fs.FileHandle> | undefined;
  #queue: Promise<void> = Promise.resolve();
  #tailChecked = false;

  constructor(readonly path: string) {}

  /** Appends `record` as one line; rejects with STATE_WIRE_FAILED, and later appends still run. */
  append(record: object): Promise<void> {
    const job = this.#queue.then(() => this.#write(record));
    this.#queue = job.catch(() => undefined);
    return job;
  }

  /** Waits for pending appends, then closes the file; a later append opens it again. */
  async close(): Promise<void> {
    await this.#queue;
    const handle = this.#handle;
    this.#handle = undefined;
    this.#tailChecked = false;
    if (handle !== undefined) await (await handle).close();
  }

  async #write(record: object): Promise<void> {
    try {
      const line = JSON.stringify(record) as string | undefined;
      if (typeof line !== 'string') throw new TypeError('the record does not serialize to JSON');
      const handle = await this.#open();
      // Another process's writes may land between ours, so a torn tail is only looked for once,
      // for the line a crash of an earlier run may have left.
      const torn = !this.#tailChecked && (await endsTorn(handle));
      const prefix = torn ? `\n${JSON.stringify(WIRE_TORN_MARKER)}\n` : '';
      this.#tailChecked = true;
      const bytes = Buffer.from(`${prefix}${line}\n`, 'utf8');
      // O_APPEND and a single write(): two processes' lines never interleave within a line.
      if (crashArmed('wire-mid-append')) {
        await handle.write(bytes.subarray(0, bytes.length >> 1));
        crashPoint('wire-mid-append');
      }
      const { bytesWritten } = await handle.write(bytes);
      if (bytesWritten !== bytes.length) throw new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`);
    } catch (error) {
      this.#tailChecked = false; // a failed write may itself have left a torn line
      const reason = errorText(error);
      const message = `could not append to ${this.path}: ${reason}`;
      throw new StateError('STATE_WIRE_FAILED', message, { cause: error });
    }
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

async function endsTorn(handle: fs.FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}
