// Starts a server as a child process in its own process group on a free loopback port, waits
// for GET /healthz, and stops it (SIGTERM to that group, the graceful shutdown path).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no answer from ${url}/healthz within ${timeoutMs} ms`);
}

/** `{url, stop()}` of `command args` run with `env` plus PORT. */
export async function startChildServer({ command, args, env }) {
  const port = await findFreePort();
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      process.kill(-child.pid, 'SIGTERM');
    });
  try {
    await waitForHealth(url, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
