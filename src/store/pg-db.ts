/**
 * One pool of connections to a Postgres store, shared by every owner's namespace of it. The URL
 * is only ever shown redacted; a connection lost while idle is noted, never thrown (the next
 * query fails, and the proxy forwards untouched until one works again).
 */
import type pg from 'pg';
import { errorText } from '../errors.js';
import { checkSchema, migrateSchema, schemaVersion } from './pg-schema.js';
import { redactUrl, scrubPassword } from './pg-url.js';
import { Slots } from './slots.js';
import { StoreError } from './store-error.js';

/** How long a connection attempt or a query may take before the store counts as unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 15_000;
/** Connections a pool has; transactions may hold all but READ_RESERVE of them at once. */
const POOL_SIZE = 8;
/** Connections kept for reads: a crowd of latches never makes a plain read wait for a connection. */
const READ_RESERVE = 2;

export class PgDb {
  readonly shown: string;
  // The client is loaded on first use: every other command would pay for it at start.
  readonly #pool: Promise<pg.Pool>;
  readonly #url: string;
  readonly #transactions: Slots;

  constructor(url: string, options: { readonly max?: number } = {}) {
    this.#url = url;
    this.shown = redactUrl(url);
    const max = options.max ?? POOL_SIZE;
    this.#transactions = new Slots(Math.max(1, max - READ_RESERVE));
    this.#pool = import('pg').then(({ default: client }) => {
      const pool = new client.Pool({
        connectionString: url,
        max,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        query_timeout: QUERY_TIMEOUT_MS,
        idleTimeoutMillis: 30_000,
      });
      // An idle client whose server went away emits here; unhandled, it would end the process.
      pool.on('error', () => undefined);
      return pool;
    });
  }

  /** Runs `work` on one connection, and gives it back (dropped, if `work` failed). */
  async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await (await this.#pool).connect();
    } catch (error) {
      throw this.unavailable(error);
    }
    let failed = false;
    try {
      return await work(client);
    } catch (error) {
      failed = true;
      throw error instanceof Error && 'code' in error && typeof error.code === 'string' && /^STATE_|^STORE_/.test(error.code) ? error : this.unavailable(error);
    } finally {
      client.release(failed);
    }
  }

  /**
   * Runs `work` in one transaction: committed if it resolves, rolled back if it throws. At most
   * the pool's size less READ_RESERVE transactions hold a connection at once; the rest wait here,
   * not for a connection, so reads (and a transaction's own reads) always find one.
   */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.#transactions.run(() => this.#inTransaction(work));
  }

  #inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** Creates or upgrades the schema (ctxshed migrate). */
  migrate(): Promise<{ from: number; to: number }> {
    return this.withClient((client) => migrateSchema(client));
  }

  /** The schema's version, 0 when never migrated. */
  version(): Promise<number> {
    return this.withClient((client) => schemaVersion(client));
  }

  /** Throws STORE_SCHEMA unless the schema is this ctxshed's, STORE_UNAVAILABLE when unreachable. */
  checkSchema(): Promise<void> {
    return this.withClient((client) => checkSchema(client, this.shown));
  }

  async close(): Promise<void> {
    await (await this.#pool).end().catch(() => undefined);
  }

  /** A STORE_UNAVAILABLE naming the store (redacted) and why, in words, without its password. */
  unavailable(error: unknown): StoreError {
    const why = scrubPassword(errorText(error), this.#url);
    return new StoreError('STORE_UNAVAILABLE', `the store ${this.shown} is unavailable: ${explainFailure(why)}`, { cause: error });
  }
}

/** A connection's or a query's failure in words a person reads, the client's own text after them. */
export function explainFailure(why: string): string {
  if (/ECONNREFUSED/.test(why)) return `nothing accepts connections at its address (${why})`;
  if (/ENOTFOUND|EAI_AGAIN/.test(why)) return `its host name does not resolve (${why})`;
  if (/timeout|timed out/i.test(why)) return `it did not answer in time (${why})`;
  if (/ECONNRESET|Connection terminated|terminating connection/i.test(why)) return `the connection to it was lost (${why})`;
  return why;
}
