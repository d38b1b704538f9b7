/** The store (store-types.ts): the state directory or Postgres behind one interface. */
export { originalKey } from './store-types.js';
export type {
  ConversationStore,
  LatchDecision,
  OriginalDigest,
  OriginalExt,
  OriginalId,
  OriginalKind,
  RecordRead,
  StampedRecord,
  StubDirs,
} from './store-types.js';
export { FsStore, fsStore, OWNERS_DIR_NAME } from './fs-store.js';
export { checkOwnerId } from './owner-id.js';
export { openPgStore, openStore } from './open-store.js';
export { PgDb } from './pg-db.js';
export { PgStore } from './pg-store.js';
export { SCHEMA_VERSION } from './pg-schema.js';
export { isPostgresUrl, redactUrl } from './pg-url.js';
export { StoreError } from './store-error.js';
export { verifyPgStore } from './verify-pg.js';
export { exportStore } from './export-store.js';
