/** The admin dashboard verifies a consent receipt in real Chromium, with the published keys only. */
import { CompactSign, importJWK } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, buildApp, type Harness, json, pageOrigin } from '../server/app-harness.ts';
import { entry } from '../server/store-contract.ts';

let browser: Browser;
let harness: Harness;
let origin: string;
let receiptId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  harness = await buildApp({}, true);
  const payload = {
    consentInstanceId: 'site',
    pageUserId: 'page-7',
    consentStateValue: 'accepted',
    purposeConsents: { ads: true },
  };
  const response = await harness.app.inject({
    method: 'POST',
    url: '/consent/update',
    headers: { ...json, origin: pageOrigin },
    payload,
  });
  receiptId = response.json().receiptId;
  const { jws } = (
    await harness.app.inject({
      url: `/consent/receipt/${receiptId}`,
      headers: { authorization: `Bearer ${adminToken}` },
    })
  ).json();
  const [header, body, signature] = jws.split('.');
  const forged = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), state: 'rejected' }),
  ).toString('base64url');
  await harness.store.recordDecision(entry({ userId: 'u9' }), {
    id: 'rcpt_forged',
    jws: `${header}.${forged}.${signature}`,
  });
  // Signed with the key after it retired, with a time that `<` would take as 0.
  const [retired] = await harness.store.listSigningKeys();
  await harness.app.inject({
    method: 'POST',
    url: '/admin/receipt-keys',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const late = new CompactSign(
    new TextEncoder().encode(JSON.stringify({ receipt_id: 'rcpt_null_time', state: 'accepted', time: null })),
  );
  const lateJws = await late
    .setProtectedHeader({ alg: 'EdDSA', kid: retired!.kid, typ: 'page-consent-receipt+jwt' })
    .sign(await importJWK(retired!.privateJwk!, 'EdDSA'));
  await harness.store.recordDecision(entry({ userId: 'u10' }), { id: 'rcpt_null_time', jws: lateJws });
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function verify(id: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/admin/`);
  await page.getByLabel('Admin token').fill(adminToken);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Receipt id').fill(id);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.locator('#receipt-status:not(:empty)').waitFor();
  return page;
}

describe.skipIf(!hasChromium)('admin dashboard receipts in Chromium', () => {
  it('verifies a receipt and shows its fields', async () => {
    const page = await verify(receiptId);
    expect(await page.locator('#receipt-status').textContent()).toMatch(/^Signature verified with key [\w-]{43}\.$/);
    const shown = JSON.parse((await page.locator('#receipt-result').textContent()) ?? '');
    expect(shown).toMatchObject({
      receipt_id: receiptId,
      pii_principal_id: 'page-7',
      state: 'accepted',
      purpose_consents: { ads: true },
      origin: pageOrigin,
    });
    await page.close();
  });

  it('says a receipt of a retired key whose time is not an integer is not valid', async () => {
    const page = await verify('rcpt_null_time');
    expect(await page.locator('#receipt-status').textContent()).toMatch(/NOT valid/);
    await page.close();
  });

  it('says so when a receipt does not verify', async () => {
    const page = await verify('rcpt_forged');
    expect(await page.locator('#receipt-status').textContent()).toMatch(/NOT valid/);
    expect(await page.locator('#receipt-result').isHidden()).toBe(true);
    await page.close();
  });
});
