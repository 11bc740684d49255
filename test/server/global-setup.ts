/**
 * Starts a throwaway PostgreSQL cluster for the server tests (initdb + pg_ctl on a free port,
 * as the `postgres` user when running as root) and provides its URL as `postgresUrl`.
 * Without the binaries, `postgresSkipReason` says why and the PostgreSQL tests are skipped.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
    postgresSkipReason: string | null;
  }
}

function findBinary(name: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = execFileSync('sh', ['-c', 'id -u postgres; id -g postgres'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  return { uid: uid!, gid: gid! };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  if (!initdb || !pgCtl) {
    const reason = 'PostgreSQL binaries (initdb, pg_ctl) not found on PATH';
    console.warn(`[server tests] PostgreSQL tests skipped: ${reason}`);
    project.provide('postgresUrl', null);
    project.provide('postgresSkipReason', reason);
    return () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'page-pg-'));
  const owner = postgresUser();
  const run = (binary: string, args: string[]) =>
    owner
      ? execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], { stdio: 'pipe' })
      : execFileSync(binary, args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const port = await freePort();
    run(initdb, ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    run(pgCtl, [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
    project.provide('postgresUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);
    project.provide('postgresSkipReason', null);
  } catch (error) {
    const reason = `PostgreSQL did not start: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
    console.warn(`[server tests] PostgreSQL tests skipped: ${reason}`);
    rmSync(dir, { recursive: true, force: true });
    project.provide('postgresUrl', null);
    project.provide('postgresSkipReason', reason);
    return () => {};
  }
  return () => {
    try {
      run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
