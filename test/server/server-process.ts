/**
 * Starts the real server as one process, as it is deployed: the built `dist/server/main.mjs`
 * (`npm run build`; `npm test` builds before its server and e2e steps).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type ServerProcess = {
  readonly child: ChildProcess;
  readonly url: string;
  /** Every stdout line so far (JSON log lines). */
  readonly lines: string[];
  readonly stderr: string[];
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const SERVER = 'dist/server/main.mjs';

/** A source newer than the bundle (so a test would run old code), or undefined. */
function newerSource(): string | undefined {
  const built = statSync(SERVER).mtimeMs;
  for (const dir of ['server', 'src']) {
    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      if (file.endsWith('.ts') && statSync(join(dir, file)).mtimeMs > built) return join(dir, file);
    }
  }
  return undefined;
}

let checked = false;
function checkBuild() {
  if (checked) return;
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build first`);
  const newer = newerSource();
  if (newer) throw new Error(`${SERVER} is older than ${newer}: run npm run build first`);
  checked = true;
}

export function runServer(env: Record<string, string>): {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  exited: ServerProcess['exited'];
} {
  checkBuild();
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, stderr, exited: () => exit };
}

/** Resolves once the server logs its listening URL. */
export async function startServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  const server = runServer(env);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of server.lines) {
      const url = line.startsWith('{') ? (JSON.parse(line) as { url?: string }).url : undefined;
      if (url) return { ...server, url };
    }
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  server.child.kill('SIGKILL');
  throw new Error(`server did not start:\n${server.stderr.join('\n')}\n${server.lines.join('\n')}`);
}
