/**
 * The Postgres store's schema, and its migrations. Every table has `owner` in its key; the
 * record is kept as the exact bytes a state directory's file would hold. `ctxshed migrate`
 * applies what is missing; a proxy refuses a database that is not at exactly this version.
 */
import type pg from 'pg';
import { StoreError } from './store-error.js';

/** Each migration, in order; the schema's version is how many have run. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE ctxshed_conversations (
     owner text NOT NULL,
     key text NOT NULL,
     format text NOT NULL,
     created_at text NOT NULL,
     version bigint NOT NULL,
     record bytea NOT NULL,
     PRIMARY KEY (owner, key)
   );
   CREATE TABLE ctxshed_originals (
     owner text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('elided', 'span', 'thinking')),
     sha256 text NOT NULL,
     ext text NOT NULL CHECK (ext IN ('txt', 'json', 'md')),
     bytes bytea NOT NULL,
     PRIMARY KEY (owner, kind, sha256, ext)
   );
   CREATE TABLE ctxshed_readings (
     owner text NOT NULL,
     key text NOT NULL,
     reading jsonb NOT NULL,
     PRIMARY KEY (owner, key)
   );`,
  // A registered epoch kind keeps its originals under its own folder name (core/epochs/kind-info.ts):
  // the kind column takes any such name, checked against the registry by the store before it writes.
  `ALTER TABLE ctxshed_originals DROP CONSTRAINT ctxshed_originals_kind_check;
   ALTER TABLE ctxshed_originals ADD CONSTRAINT ctxshed_originals_kind_check CHECK (kind ~ '^[a-z][a-z0-9_]*$');`,
];

/** The version this ctxshed reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS ctxshed_schema_version (
  id int PRIMARY KEY CHECK (id = 1),
  version int NOT NULL,
  migrated_at timestamptz NOT NULL DEFAULT now()
)`;
// Two `migrate`s at once: the second waits, then finds nothing left to do.
const MIGRATE_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('ctxshed.migrate', 0))`;

/** Creates or upgrades the schema; returns the version before and after. Refuses a newer one. */
export async function migrateSchema(client: pg.ClientBase): Promise<{ from: number; to: number }> {
  await client.query('BEGIN');
  try {
    await client.query(MIGRATE_LOCK);
    await client.query(VERSION_TABLE);
    const from = await versionIn(client);
    if (from > SCHEMA_VERSION) throw newerSchema(from);
    for (let v = from; v < SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v] as string);
    await client.query(
      `INSERT INTO ctxshed_schema_version (id, version) VALUES (1, $1)
       ON CONFLICT (id) DO UPDATE SET version = $1, migrated_at = now()`,
      [SCHEMA_VERSION],
    );
    await client.query('COMMIT');
    return { from, to: SCHEMA_VERSION };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The schema's version: 0 when ctxshed never migrated this database. */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const table = await client.query<{ present: boolean }>(`SELECT to_regclass('ctxshed_schema_version') IS NOT NULL AS present`);
  if (table.rows[0]?.present !== true) return 0;
  return versionIn(client);
}

/** Throws STORE_SCHEMA unless the database is at exactly SCHEMA_VERSION, naming the fix. */
export async function checkSchema(client: pg.ClientBase, shownUrl: string): Promise<void> {
  const version = await schemaVersion(client);
  if (version > SCHEMA_VERSION) throw newerSchema(version);
  if (version < SCHEMA_VERSION) {
    const was = version === 0 ? 'has no ctxshed schema' : `has schema version ${version}`;
    throw new StoreError('STORE_SCHEMA', `the store ${shownUrl} ${was}; this ctxshed needs version ${SCHEMA_VERSION}: run ctxshed migrate --store <url>`);
  }
}

async function versionIn(client: pg.ClientBase): Promise<number> {
  const result = await client.query<{ version: number }>('SELECT version FROM ctxshed_schema_version WHERE id = 1');
  return result.rows[0]?.version ?? 0;
}

function newerSchema(version: number): StoreError {
  return new StoreError('STORE_SCHEMA', `the store's schema is version ${version}, newer than this ctxshed knows (${SCHEMA_VERSION}): upgrade ctxshed`);
}
