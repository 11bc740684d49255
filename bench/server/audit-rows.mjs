// Rows of the consent audit log (one per durable `/consent/update`), read from the store itself;
// and the PostgreSQL housekeeping the bench runs between loads.
import Database from 'better-sqlite3';
import pg from 'pg';

export async function countAuditRows(databaseUrl) {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT COUNT(*) AS n FROM audit_log').get().n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query('SELECT COUNT(*) AS n FROM audit_log')).rows[0].n);
  } finally {
    await client.end();
  }
}

/** Runs now the vacuum and checkpoint that the loads so far would set off later, in the middle of another load. */
export async function settlePostgres(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}
