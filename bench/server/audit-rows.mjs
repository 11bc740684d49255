// Rows of the consent audit log (one per durable `/consent/update`), read from the store itself.
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
