import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../../server/routes/cmp.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp } from './app-harness.ts';

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
    expect(embeddedConfig(response.body)).toEqual({ ...prompt, outcomeUrl: '/cmp/outcome?instance=site' });
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))![1]!;
    expect(response.body).toContain(`<script nonce="${nonce}">`);
    expect(response.body).toContain(`<style nonce="${nonce}">`);
    expect(response.body).not.toContain('__NONCE__');
  });

  it('uses a generic prompt with the required purposes for an instance without prompt config', async () => {
    const { app, store } = await buildApp();
    await store.putInstance('site', { ...defaultInstanceConfig, purposeConsentRequired: ['analytics'] }, 1);
    const config = embeddedConfig((await app.inject({ url: '/cmp/prompt.html?instance=site' })).body);
    expect(config.title).toBe('Your privacy choices');
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
    expect(embeddedConfig(response.body)).toMatchObject({ title: 'Your privacy choices', purposes: [], outcomeUrl: null });
  });

  it('answers 400 naming instance when it is malformed', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: `/cmp/prompt.html?instance=${'a'.repeat(101)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^instance: expected an id/);
  });

  it('speaks the promptUiSrc protocol: ready first, then consent-response actions', async () => {
    const { app } = await buildApp();
    const html = (await app.inject({ url: '/cmp/prompt.html?instance=site' })).body;
    expect(html).toContain("post({ type: 'consent-ui', action: 'ready', initialHeight: '60vh', border: true })");
    expect(html).toContain("type: 'consent-response', action");
    expect(html).toContain('JSON.parse(window.name');
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
    expect(await store.promptOutcomes('site', '2025-06-15')).toEqual([{ day: '2025-06-15', accept: 0, reject: 0, dismiss: 1 }]);
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
