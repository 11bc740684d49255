/** The CLI as a process: `node cli/page-validate.mjs` on a file, on stdin and on a URL. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakPage, VALID_PAGE } from './pages.ts';

const LAUNCHER = resolve(import.meta.dirname, '../../../cli/page-validate.mjs');
const BROKEN = breakPage('<page-img src="/photo.jpg"', '<page-img src="javascript:alert(1)"');

function runProcess(args: string[], stdin?: string): Promise<{ code: number; stdout: string }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [LAUNCHER, ...args], { timeout: 30_000 }, (error, stdout) => {
      done({ code: error ? Number(error.code ?? -1) : 0, stdout });
    });
    child.stdin?.end(stdin ?? '');
  });
}

// Each test starts a Node process that loads the CLI through tsx (about a second, several under load).
describe('page-validate', { timeout: 30_000 }, () => {
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = request.url === '/broken.html' ? BROKEN : request.url === '/valid.html' ? VALID_PAGE : null;
      response.writeHead(body === null ? 404 : 200, { 'content-type': 'text/html' }).end(body ?? 'not found');
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  it('exits 0 and prints the usage with --help', async () => {
    const { code, stdout } = await runProcess(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: page-validate');
  });

  it('exits 1 and prints located findings for a file with an error', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'page-validate-')), 'page.html');
    writeFileSync(path, BROKEN);
    const { code, stdout } = await runProcess([path]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(
        `^${path}:\\d+:13 error url-refused: expected an http\\(s\\) or relative URL, got "javascript:alert\\(1\\)"\n`,
      ),
    );
    expect(stdout).toContain(`${path}: 1 error, 0 warnings`);
  }, 40_000);

  it('reads the page from stdin with -', async () => {
    const { code, stdout } = await runProcess(['-', '--format', 'json'], VALID_PAGE);
    expect({ code, findings: JSON.parse(stdout) }).toEqual({ code: 0, findings: [] });
  }, 40_000);

  it('fetches a page by URL, and reports a non-2xx answer', async () => {
    const broken = await runProcess([`${origin}/broken.html`, '--format=json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).map(({ code }: { code: string }) => code)).toEqual(['url-refused']);
    const missing = await runProcess([`${origin}/nothing.html`]);
    expect(missing).toMatchObject({
      code: 1,
      stdout: expect.stringContaining('validate-input-unreadable: expected a readable page or config, got "HTTP 404"'),
    });
  }, 40_000);
});
