/**
 * `--sitemap`: the bounded sitemap reader (no DTD, unprefixed `<loc>` only, entities and CDATA
 * decoded, http(s) only, a cap on locations), and the pages read from a sitemap or a sitemap
 * index one level deep on a real loopback server, within the fetch's limits.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from '../../../cli/fetch-page.ts';
import { readSitemapPages } from '../../../cli/audit/sitemap-pages.ts';
import { decodeText, MAX_LOCATIONS, parseSitemap } from '../../../cli/audit/sitemap.ts';

const urlset = (locs: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;
const index = (locs: readonly string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;

describe('sitemap', () => {
  it('reads the pages of a urlset, its entities and CDATA decoded, an image extension left out', () => {
    const text = `<?xml version="1.0"?><!-- made by hand --><urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc> https://news.example/a?x=1&amp;y=2 </loc><image:image><image:loc>https://img.example/1.png</image:loc></image:image></url>
<url><loc><![CDATA[https://news.example/b?x=1&y=2]]></loc></url>
<url><loc>https://news.example/&#x63;af&#233;</loc></url></urlset>`;
    expect(parseSitemap(text)).toEqual({
      kind: 'urlset',
      locations: ['https://news.example/a?x=1&y=2', 'https://news.example/b?x=1&y=2', 'https://news.example/caf%C3%A9'],
      skipped: 0,
    });
  });

  it('reads the sitemaps of a sitemap index', () => {
    expect(parseSitemap(index(['https://news.example/s1.xml']))).toMatchObject({
      kind: 'sitemapindex',
      locations: ['https://news.example/s1.xml'],
    });
  });

  it('refuses a DTD, another root and text that is not XML, saying what it got', () => {
    const withDtd =
      '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaa">]><urlset><url><loc>&a;</loc></url></urlset>';
    expect(parseSitemap(withDtd)).toEqual({
      expected: 'an XML sitemap (<urlset> or <sitemapindex>) without a DTD',
      got: 'a document with a DTD (<!DOCTYPE>)',
    });
    expect(parseSitemap('<html><body>hi</body></html>')).toMatchObject({ got: '<html>' });
    expect(parseSitemap('{"pages": []}')).toMatchObject({ got: 'text that is not XML ("{\\"pages\\": []}")' });
  });

  it('skips what is not an http(s) URL: another scheme, an unknown entity, markup, an overlong URL', () => {
    const sitemap = parseSitemap(
      urlset([
        'javascript:alert(1)',
        'https://a.example/&nbsp;',
        '<b>https://a.example/</b>',
        `https://a.example/${'x'.repeat(2_100)}`,
        'https://a.example/ok',
      ]),
    );
    expect(sitemap).toEqual({ kind: 'urlset', locations: ['https://a.example/ok'], skipped: 4 });
  });

  it('stops at an unclosed <loc> and caps the locations it keeps', () => {
    expect(
      parseSitemap('<urlset><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2'),
    ).toMatchObject({
      locations: ['https://a.example/1'],
    });
    const many = parseSitemap(urlset(Array.from({ length: MAX_LOCATIONS + 3 }, (_, n) => `https://a.example/${n}`)));
    expect(many).toMatchObject({ skipped: 3 });
    expect('locations' in many && many.locations.length).toBe(MAX_LOCATIONS);
  });

  it('reads a long run of unclosed comments and <loc> openings in linear time', () => {
    const started = performance.now();
    parseSitemap(`<urlset>${'<!--<loc>'.repeat(200_000)}`);
    parseSitemap(`<urlset>${'<loc>'.repeat(400_000)}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('decodes character references and refuses a bare ampersand', () => {
    expect(decodeText('a&lt;b&#62;&quot;')).toBe('a<b>"');
    expect(decodeText('a & b')).toBeNull();
    expect(decodeText('&#0;')).toBeNull();
  });
});

let server: Server;
let origin = '';
const bodies: Record<string, string> = {};

beforeAll(async () => {
  server = createServer((request, response) => {
    const body = bodies[request.url ?? ''];
    if (request.url === '/moved.xml') return response.writeHead(302, { location: `${origin}/sitemap.xml` }).end();
    if (request.url === '/to-localhost.xml')
      return response.writeHead(302, { location: origin.replace('127.0.0.1', 'localhost') + '/sitemap.xml' }).end();
    if (body === undefined) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/xml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  bodies['/sitemap.xml'] = urlset([
    `${origin}/`,
    `${origin}/a#top`,
    `${origin}/a`,
    'https://elsewhere.example/x',
    `${origin}/b`,
  ]);
  bodies['/index.xml'] = index([
    `${origin}/s1.xml`,
    'https://elsewhere.example/s.xml',
    `${origin}/nested.xml`,
    `${origin}/s2.xml`,
  ]);
  bodies['/s1.xml'] = urlset([`${origin}/one`]);
  bodies['/nested.xml'] = index([`${origin}/s3.xml`]);
  bodies['/s2.xml'] = urlset([`${origin}/two`, `${origin}/three`]);
  bodies['/s3.xml'] = urlset([`${origin}/deep`]);
  bodies['/elsewhere.xml'] = urlset(['https://elsewhere.example/x']);
  bodies['/dtd.xml'] = '<!DOCTYPE urlset><urlset></urlset>';
  bodies['/big.xml'] = urlset(Array.from({ length: 200 }, (_, n) => `${origin}/${n}`));
  bodies['/broken-index.xml'] = index([`${origin}/missing.xml`]);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const settings = { maxPages: 10, allowPrivate: [] };

describe('sitemap-pages', () => {
  it('keeps the pages on the sitemap origin, each once and without its fragment, and counts the rest', async () => {
    expect(await readSitemapPages(new URL(`${origin}/sitemap.xml`), settings)).toEqual({
      sitemaps: [`${origin}/sitemap.xml`],
      listed: 4,
      outside: 1,
      pages: [`${origin}/`, `${origin}/a`, `${origin}/b`],
    });
  });

  it('caps the pages', async () => {
    const read = await readSitemapPages(new URL(`${origin}/sitemap.xml`), { ...settings, maxPages: 2 });
    expect(read).toMatchObject({ pages: [`${origin}/`, `${origin}/a`] });
  });

  it('follows a sitemap index one level deep, on its origin only', async () => {
    expect(await readSitemapPages(new URL(`${origin}/index.xml`), settings)).toEqual({
      sitemaps: [`${origin}/index.xml`, `${origin}/s1.xml`, `${origin}/nested.xml`, `${origin}/s2.xml`],
      listed: 3,
      outside: 0,
      pages: [`${origin}/one`, `${origin}/two`, `${origin}/three`],
    });
  });

  it('refuses a sitemap over the size limit, one with a DTD, one that is missing, one without pages of its origin', async () => {
    const small = { ...settings, fetchOptions: { maxBytes: 1_024 } };
    expect(await readSitemapPages(new URL(`${origin}/big.xml`), small)).toMatchObject({
      got: `${origin}/big.xml: body over 0.0009765625 MB`,
    });
    expect(await readSitemapPages(new URL(`${origin}/dtd.xml`), settings)).toMatchObject({
      got: 'a document with a DTD (<!DOCTYPE>)',
    });
    expect(await readSitemapPages(new URL(`${origin}/broken-index.xml`), settings)).toMatchObject({
      got: `${origin}/missing.xml: HTTP 404`,
    });
    expect(await readSitemapPages(new URL(`${origin}/elsewhere.xml`), settings)).toEqual({
      expected: `a sitemap that lists pages on ${origin}`,
      got: 'no page on it (1 elsewhere) in 1 sitemap(s)',
    });
  });

  it('follows a redirect of a loopback sitemap to its own address', async () => {
    expect(await readSitemapPages(new URL(`${origin}/moved.xml`), settings)).toMatchObject({ listed: 4 });
  });
});

describe('fetch-page with allowed private hosts', () => {
  it('lets a redirect reach a loopback host only when it is allowed', async () => {
    await expect(fetchPage(`${origin}/to-localhost.xml`)).rejects.toThrow('loopback/private');
    const fetched = await fetchPage(`${origin}/to-localhost.xml`, { allowPrivateHosts: ['localhost'] });
    expect(fetched.text).toContain('<urlset');
  });
});
