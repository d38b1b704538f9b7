/**
 * Opening the store a command names: `--store postgres://…` is Postgres (its schema checked, so a
 * proxy never starts on an unmigrated or newer one); otherwise the state directory.
 */
import type { StateDir } from '../state/layout.js';
import { fsStore } from './fs-store.js';
import { PgDb } from './pg-db.js';
import { PgStore } from './pg-store.js';
import { isPostgresUrl, redactUrl } from './pg-url.js';
import { StoreError } from './store-error.js';
import type { ConversationStore } from './store-types.js';

/** Opens a Postgres store on `url` and checks its schema; throws STORE_SCHEMA or STORE_UNAVAILABLE. */
export async function openPgStore(url: string, options: { readonly stubRoot?: string; readonly checkSchema?: boolean } = {}): Promise<PgStore> {
  if (!isPostgresUrl(url)) throw new StoreError('STORE_BAD_URL', `--store takes a postgres:// or postgresql:// URL, got ${redactUrl(url)}`);
  const db = new PgDb(url);
  try {
    if (options.checkSchema !== false) await db.checkSchema();
  } catch (error) {
    await db.close();
    throw error;
  }
  return new PgStore(db, '', options.stubRoot);
}

/** The store `--store` names, or the state directory `state` when it names none. */
export async function openStore(storeFlag: string | undefined, state: StateDir): Promise<ConversationStore> {
  return storeFlag === undefined ? fsStore(state) : openPgStore(storeFlag);
}
