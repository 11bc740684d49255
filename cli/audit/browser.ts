/**
 * The audit's browser: the Chromium that `npm test` uses (found, or installed as root, by
 * scripts/ensure-chromium.mjs), headless, through the project's `playwright-core`. An audited
 * page is untrusted code, so the browser runs with Chromium's sandbox and site isolation on.
 * Where the sandbox cannot be had (Chromium refuses it to root; an ordinary user needs user
 * namespaces or its setuid helper) the audit refuses to start, unless the reader passed
 * `--audit-no-sandbox` knowingly. Each renderer's JavaScript heap is bounded
 * (`RENDERER_HEAP_MB`); WebRTC may use no UDP outside the proxy (the address guard, see
 * address-guard.ts); each journey gets a fresh context (an empty profile).
 */
import { type Browser, chromium } from 'playwright-core';
import { ensureChromium } from '../../scripts/ensure-chromium.mjs';

/** Flags of every headless run of the project on a closed machine: the audit's and the tests'. */
const QUIET_ARGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu', '--disable-quic'];

/** The project's test browser (test/browser-server.ts) runs the project's own pages, as root: without the sandbox. */
export const HEADLESS_ARGS = ['--no-sandbox', ...QUIET_ARGS];

/**
 * Work a headless run with fresh contexts never uses: every new window of the full browser
 * preloads the omnibox's two WebUI popups in a renderer of their own, and every new context
 * starts a spare renderer for a later page of that context, which a journey or a test rarely
 * opens. Together about 200 ms and two busy processes beside each page opened.
 */
export const UNUSED_WORK_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

/** The browser's own requests, which no page makes: optimisation hints, network time, AI Mode eligibility and the search engine's preconnect (all to Google). */
export const OWN_REQUEST_FEATURES = ['OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch'];

/** A renderer whose JavaScript heap passes this many MB runs out of memory and stops (the page crashes). */
export const RENDERER_HEAP_MB = 512;

export const NO_SANDBOX_FLAG = '--audit-no-sandbox';

/** Chromium keeps only the last `--disable-features`: this one replaces Playwright's own list, so the audit's pages run with Chromium's defaults otherwise (site isolation included). */
export function auditBrowserArgs(isSandboxed: boolean): string[] {
  return [
    ...(isSandboxed ? [] : ['--no-sandbox']),
    ...QUIET_ARGS,
    `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    `--disable-features=${[...UNUSED_WORK_FEATURES, ...OWN_REQUEST_FEATURES].join(',')}`,
  ];
}

/** The audit would not start: the sandbox is missing and `--audit-no-sandbox` was not passed. */
export class SandboxRefusal extends Error {
  override readonly name = 'SandboxRefusal';
}

const isRoot = () => process.getuid?.() === 0;
const sandboxes = new WeakMap<Browser, boolean>();

/** Whether the browser runs with its sandbox; null for a browser the audit did not launch. */
export const isSandboxed = (browser: Browser): boolean | null => sandboxes.get(browser) ?? null;

const launch = async (isSandboxed: boolean) => {
  const browser = await chromium.launch({ executablePath: ensureChromium(), headless: true, chromiumSandbox: isSandboxed, args: auditBrowserArgs(isSandboxed) });
  sandboxes.set(browser, isSandboxed);
  return browser;
};

function refusal(cause: string): SandboxRefusal {
  return new SandboxRefusal(
    `refused: Chromium's sandbox is not available here (${cause}), and an audited page is untrusted code. Run the audit as an ordinary user on a system with user namespaces, or pass ${NO_SANDBOX_FLAG} to run the browser without its sandbox knowingly (docs/validator.md, "The audit's browser").`,
  );
}

/** The sandboxed browser; without a sandbox only when `isNoSandboxAllowed`, else a `SandboxRefusal`. */
export async function launchAuditBrowser(options: { readonly isNoSandboxAllowed?: boolean } = {}): Promise<Browser> {
  let cause = 'Chromium does not sandbox a browser run as root';
  if (!isRoot()) {
    try {
      return await launch(true);
    } catch (error) {
      cause = `the sandboxed browser did not start: ${error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)}`;
    }
  }
  if (options.isNoSandboxAllowed !== true) throw refusal(cause);
  return launch(false);
}
