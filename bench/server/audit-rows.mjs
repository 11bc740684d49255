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
  return withClient(databaseUrl, async (client) =>
    Number((await client.query('SELECT COUNT(*) AS n FROM audit_log')).rows[0].n),
  );
}

/** Runs now the vacuum and checkpoint that the loads so far would set off later, in the middle of another load. */
export function settlePostgres(databaseUrl) {
  return withClient(databaseUrl, async (client) => {
    await client.query('VACUUM (ANALYZE)');
    await client.query('CHECKPOINT');
  });
}

async function withClient(databaseUrl, use) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
