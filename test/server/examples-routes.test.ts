import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app-harness.ts';

describe('examples routes', () => {
  it('redirects / and /examples to the examples index', async () => {
    const { app } = await buildApp();
    expect((await app.inject({ url: '/' })).headers.location).toBe('/examples/');
    const bare = await app.inject({ url: '/examples' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/examples/');
  });

  it('lists the html pages with their titles when there is no index.html', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/examples/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<a href="first.html">First example</a>');
    expect(response.body).toContain('<a href="nested/">nested/</a>');
    expect(response.body).not.toContain('style.css');
    expect(response.body).not.toContain('.secret');
  });

  it('escapes page titles in the listing', async () => {
    const { app, dir } = await buildApp();
    writeFileSync(join(dir, 'examples/evil.html'), '<title>x"><script>alert(1)</script></title>');
    const response = await app.inject({ url: '/examples/' });
    expect(response.body).not.toContain('<script>alert');
  });

  it('serves index.html of a folder when there is one', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/examples/nested/' });
    expect(response.body).toBe('<!doctype html><title>Nested</title>');
    const bare = await app.inject({ url: '/examples/nested?x=1' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/examples/nested/');
  });

  it('serves files with their content type and no-cache', async () => {
    const { app } = await buildApp();
    const page = await app.inject({ url: '/examples/first.html' });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    const css = await app.inject({ url: '/examples/style.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe('body{}');
  });

  it('answers 404 for missing files, dotfiles and paths outside the folder', async () => {
    const { app } = await buildApp();
    for (const url of [
      '/examples/missing.html',
      '/examples/.secret',
      '/examples/../cdn/v0.js',
      '/examples/%2e%2e/cdn/v0.js',
      '/examples/..%2fcdn%2fv0.js',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('says there are no examples yet when the folder is missing', async () => {
    const { app, dir } = await buildApp();
    rmSync(join(dir, 'examples'), { recursive: true });
    const response = await app.inject({ url: '/examples/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('No example pages yet.');
  });

  it('serves a built library from the examples tree beside the CDN tree, files only, never over the folder', async () => {
    const built = mkdtempSync(join(tmpdir(), 'page-built-'));
    mkdirSync(join(built, 'examples/lib'), { recursive: true });
    writeFileSync(join(built, 'examples/lib/prebid.js'), 'window.pbjs = {};');
    writeFileSync(join(built, 'examples/first.html'), 'not this one');
    try {
      const { app } = await buildApp({ cdnRoot: join(built, 'cdn') });
      const library = await app.inject({ url: '/examples/lib/prebid.js' });
      expect([library.statusCode, library.headers['content-type'], library.body]).toEqual([
        200,
        'text/javascript; charset=utf-8',
        'window.pbjs = {};',
      ]);
      expect((await app.inject({ url: '/examples/first.html' })).body).toContain('First example');
      for (const url of ['/examples/lib/', '/examples/lib/missing.js', '/examples/lib/../../cdn/v0.js']) {
        expect((await app.inject({ url })).statusCode, url).toBe(404);
      }
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });
});
