import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../../server/routes/cmp.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp, writeFiles } from './app-harness.ts';

function embeddedConfig(html: string) {
  const match = /<script type="application\/json" id="prompt-config">([^<]*)<\/script>/.exec(html);
  return JSON.parse(match![1]!);
}

describe('cmp routes', () => {
  it('serves the prompt with the instance prompt config and a nonce CSP', async () => {
    const { app, store } = await buildApp();
    const prompt = {
      title: 'Privacy at News',
      message: 'We use cookies.',
      purposes: [{ id: 'ads', label: 'Personalised ads', description: 'Ads based on your reading.' }],
      vendors: [{ name: 'Ad Network', url: 'https://ads.example/privacy', purposes: ['ads'] }],
      privacyPolicyUrl: 'https://news.example/privacy',
    };
    await store.putInstance('site', { ...defaultInstanceConfig, prompt }, 1);
    const response = await app.inject({ url: '/cmp/prompt.html?instance=site' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(embeddedConfig(response.body)).toMatchObject({
      ...prompt,
      outcomeUrl: '/cmp/outcome?instance=site',
      lang: 'en',
      tcf: null,
      detailsScript: '/cmp/details-0.1.js',
    });
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))![1]!;
    expect(response.body).toContain(`<script nonce="${nonce}" src="/cmp/prompt-0.1.js">`);
    expect(response.body).toContain(`<style nonce="${nonce}">`);
    expect(response.body).not.toContain('__NONCE__');
  });

  it('uses a generic prompt with the required purposes for an instance without prompt config', async () => {
    const { app, store } = await buildApp();
    await store.putInstance('site', { ...defaultInstanceConfig, purposeConsentRequired: ['analytics'] }, 1);
    const config = embeddedConfig((await app.inject({ url: '/cmp/prompt.html?instance=site' })).body);
    expect(config.title).toBe('Your privacy choices');
    expect(config.message).toMatch(/^We and our partners store and read information on your device/);
    expect(config.purposes).toEqual([{ id: 'analytics', label: 'analytics' }]);
  });

  it('serves the generic prompt for an unknown instance without creating it', async () => {
    const { app, store } = await buildApp();
    const response = await app.inject({ url: '/cmp/prompt.html?instance=new-site' });
    expect(response.statusCode).toBe(200);
    expect(await store.getInstance('new-site')).toBeNull();
  });

  it('serves the generic prompt without an instance parameter', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/cmp/prompt.html' });
    expect(response.statusCode).toBe(200);
    expect(embeddedConfig(response.body)).toMatchObject({
      title: 'Your privacy choices',
      purposes: [],
      outcomeUrl: null,
    });
  });

  it('answers 400 naming instance when it is malformed', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: `/cmp/prompt.html?instance=${'a'.repeat(101)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^instance: expected an id/);
  });

  it('chooses the language from lang, else Accept-Language, else English, and says it on the document', async () => {
    const { app } = await buildApp();
    const page = async (query: string, language?: string) => {
      const response = await app.inject({
        url: `/cmp/prompt.html${query}`,
        headers: language ? { 'accept-language': language } : {},
      });
      return { html: response.body, config: embeddedConfig(response.body), vary: response.headers['vary'] };
    };
    const german = await page('', 'de-AT,de;q=0.9,en;q=0.5');
    expect(german.html).toContain('<html lang="de" dir="ltr">');
    expect(german.config).toMatchObject({
      lang: 'de',
      title: 'Ihre Datenschutz-Einstellungen',
      messages: { acceptAll: 'Alle akzeptieren' },
    });
    expect(german.vary).toContain('Accept-Language');
    expect((await page('?lang=is', 'de')).config.messages.rejectAll).toBe('Hafna öllu');
    expect((await page('?lang=xx', 'ja')).config.lang).toBe('en');
  });

  it('serves the built frame scripts compressed with cache headers, and 404 for other names', async () => {
    const { app, dir } = await buildApp();
    writeFiles(dir, { 'cdn/cmp/prompt-0.1.js': 'console.log("first layer");'.repeat(20) });
    const script = await app.inject({ url: '/cmp/prompt-0.1.js', headers: { 'accept-encoding': 'br' } });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-encoding']).toBe('br');
    expect(script.headers['cache-control']).toMatch(/max-age=/);
    expect((await app.inject({ url: '/cmp/..%2Fv0.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/cmp/details-0.1.js' })).json().error.code).toBe('not-found');
  });

  it('keeps embedded config from closing the script element', () => {
    const text = scriptSafeJson({ title: '</script><script>alert(1)</script>\u2028' });
    expect(text).not.toContain('</script');
    expect(JSON.parse(text).title).toBe('</script><script>alert(1)</script>\u2028');
  });

  it('counts hosted prompt outcomes for an existing instance', async () => {
    const { app, store } = await buildApp();
    await store.ensureInstance('site', defaultInstanceConfig, 1);
    const response = await app.inject({ method: 'POST', url: '/cmp/outcome?instance=site&action=dismiss' });
    expect(response.statusCode).toBe(204);
    expect(await store.promptOutcomes('site', '2025-06-15')).toEqual([
      { day: '2025-06-15', accept: 0, reject: 0, dismiss: 1 },
    ]);
  });

  it('counts an outcome posted from any origin and address, without a cookie: the counts are self-reported', async () => {
    const { app, store } = await buildApp();
    await store.ensureInstance('site', defaultInstanceConfig, 1);
    const posts = ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((remoteAddress) =>
      app.inject({
        method: 'POST',
        url: '/cmp/outcome?instance=site&action=accept',
        headers: { origin: 'https://anyone.example' },
        remoteAddress,
      }),
    );
    for (const response of await Promise.all(posts)) {
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
    expect(await store.promptOutcomes('site', '2025-06-15')).toEqual([
      { day: '2025-06-15', accept: 3, reject: 0, dismiss: 0 },
    ]);
  });

  it('refuses outcomes for an unknown instance or action', async () => {
    const { app, store } = await buildApp();
    const unknown = await app.inject({ method: 'POST', url: '/cmp/outcome?instance=ghost&action=accept' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('instance-not-found');
    await store.ensureInstance('site', defaultInstanceConfig, 1);
    const badAction = await app.inject({ method: 'POST', url: '/cmp/outcome?instance=site&action=maybe' });
    expect(badAction.statusCode).toBe(400);
    expect(badAction.json().error.message).toBe('action: expected one of accept, reject, dismiss, got "maybe"');
  });
});
