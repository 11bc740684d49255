/** Pages, probes and the per-file browser and server shared by the consent and geo e2e tests. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { html, launchBrowser, type Route, startServer, type TestPage, type TestServer } from './harness.ts';

export const PROMPT = `<div id="prompt"><p>We use cookies.</p>
  <button id="accept" on="tap:consent.accept">Accept</button>
  <button id="reject" on="tap:consent.reject">Reject</button>
  <button id="dismiss" on="tap:consent.dismiss">Later</button></div>`;

export const POST_PROMPT = `<div id="post"><button id="manage" on="tap:consent.prompt">Privacy settings</button></div>`;

export const SVG = {
  body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="teal"/></svg>',
  headers: { 'content-type': 'image/svg+xml' },
};

/** The browser and the page server of one e2e file, each opened before its tests and closed after them. */
export type ConsentFixture = { readonly browser: Browser; readonly server: TestServer };

/**
 * Opens the file's browser connection and its page server (serving `/img.svg` for the probes,
 * and `routes`) before the file's tests, and closes both after them. Call it at the top level.
 */
export function useConsentFixture(routes: Record<string, Route> = {}): ConsentFixture {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startServer({ '/img.svg': SVG, ...routes });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const opened = (name: string) =>
    new Error(`the e2e fixture's ${name} is opened before the tests: use it inside a test or hook`);
  return {
    get browser() {
      if (!browser) throw opened('browser');
      return browser;
    },
    get server() {
      if (!server) throw opened('server');
      return server;
    },
  };
}

/** A page-img that requests `/img.svg?<id>` only when built and laid out. */
export const probe = (id: string, markers = '') =>
  `<page-img id="${id}" ${markers} src="/img.svg?${id}" width="10" height="10" layout="fixed"></page-img>`;

/** Every probe with each blocking policy. */
export const PROBES = [
  probe('open'),
  probe('default', 'data-block-on-consent'),
  probe('till-accepted', 'data-block-on-consent="_till_accepted"'),
  probe('till-responded', 'data-block-on-consent="_till_responded"'),
  probe('auto-reject', 'data-block-on-consent="_auto_reject"'),
].join('\n');

export type ConsentPageOptions = {
  readonly body?: string;
  readonly inside?: string;
  readonly attributes?: string;
  readonly head?: string;
  readonly geo?: object | undefined;
  readonly geoAttributes?: string;
};

/** A page with `<page-consent id="consent">` (prompt + post-prompt children by default). */
export function consentPage(config: object, options: ConsentPageOptions = {}): string {
  const { body = PROBES, inside = PROMPT + POST_PROMPT, attributes = '', head = '', geo, geoAttributes = '' } = options;
  const geoElement = geo
    ? `<page-geo layout="nodisplay" ${geoAttributes}><script type="application/json">${JSON.stringify(geo)}</script></page-geo>`
    : '';
  const extensions = geo ? ['page-consent', 'page-geo'] : ['page-consent'];
  return html(
    `${geoElement}<page-consent id="consent" layout="nodisplay" ${attributes}><script type="application/json">${JSON.stringify(config)}</script>${inside}</page-consent>
    ${body}
    <script>
      window.consentEvents = [];
      document.addEventListener('consent-change', (event) => window.consentEvents.push(event.detail));
    </script>`,
    { extensions, head },
  );
}

/** Which probes have built and laid out (their <img> exists). */
export async function builtProbes(page: Page): Promise<string[]> {
  return page.$$eval('page-img', (elements) =>
    elements.filter((element) => element.querySelector('img')).map((element) => element.id),
  );
}

/** Ids of probes whose image was requested from the server. */
export const requestedProbes = (server: TestServer) =>
  server.requestsTo('/img.svg').map((request) => request.url.split('?')[1]);

export const isShown = (page: Page, selector: string) =>
  page.$eval(selector, (element) => element.checkVisibility()).catch(() => false);

/** The decoded site store (`page-store:{hostname}`). */
export async function storedValues(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => {
    const text = localStorage.getItem(`page-store:${location.hostname}`);
    if (!text) return {};
    const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)).values;
  });
}

/** The console lines carrying a diagnostic code. */
export const diagnosticsOf = <T extends { text: string }>(messages: readonly T[], code: string) =>
  messages.filter((message) => message.text.includes(` ${code}:`));

/** Console lines shaped like publisher diagnostics from `source`: `[element#id] code: expected X, got Y`. */
export function diagnosticLines(test: Pick<TestPage, 'messages'>, source = 'page-consent#consent'): string[] {
  const prefix = `[${source}] `;
  return test.messages
    .filter((m) => (m.type === 'error' || m.type === 'warning') && m.text.startsWith(prefix))
    .map((m) => m.text);
}

/** The shape of every publisher diagnostic line. */
export const DIAGNOSTIC = /^\[[a-z-]+(#[\w-]+)?\] [a-z0-9]+(-[a-z0-9]+)*: expected .+, got .+/s;

type VendorApi = { consent: Record<string, ((...args: unknown[]) => unknown) | undefined> };

/** Calls the vendor API `page.consent[method](...args)` through the `PAGE` queue and returns its awaited result. */
export const vendorCall = (page: Page, method: string, ...args: unknown[]) =>
  page.evaluate(
    ([name, list]) =>
      new Promise((resolve) => {
        const scope = self as unknown as { PAGE?: { push(f: (p: VendorApi) => void): void } };
        scope.PAGE ??= [] as unknown as NonNullable<typeof scope.PAGE>;
        scope.PAGE.push(async (p) => resolve(await p.consent[name as string]?.(...(list as unknown[]))));
      }),
    [method, args] as const,
  );
