/**
 * A throwaway PostgreSQL cluster for the server part, started by the server tests' own global
 * setup (test/server/global-setup.ts: initdb + pg_ctl, as the `postgres` user when root) so the
 * logic lives in one place. Resolves null with the reason when the binaries are missing.
 */
import setup from '../../test/server/global-setup.ts';

export type PostgresCluster = { readonly url: string; stop(): void };

export async function startPostgresCluster(): Promise<PostgresCluster | { readonly skipped: string }> {
  const provided: Record<string, string | null> = {};
  const project = { provide: (key: string, value: string | null) => (provided[key] = value) };
  const teardown = await setup(project as unknown as Parameters<typeof setup>[0]);
  const url = provided['postgresUrl'];
  if (!url) return { skipped: provided['postgresSkipReason'] ?? 'PostgreSQL did not start' };
  return { url, stop: teardown };
}
