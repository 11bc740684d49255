/**
 * The audit's browser: the Chromium that `npm test` uses (found, or installed as root, by
 * scripts/ensure-chromium.mjs), headless, through the project's `playwright-core`. An audited
 * page is untrusted code, so the browser runs with Chromium's sandbox and site isolation on.
 * Where the sandbox cannot be had (Chromium refuses it to root; an ordinary user needs user
 * namespaces or its setuid helper) the audit refuses to start, unless the reader passed
 * `--audit-no-sandbox` knowingly. Each renderer's JavaScript heap is bounded
 * (`RENDERER_HEAP_MB`); WebRTC may use no UDP outside the proxy (the address guard, see
 * address-guard.ts); each journey gets a fresh context (an empty profile).
 *
 * Third-party cookies are stored as a reader's default Chrome stores them. A fresh context is an
 * off-the-record profile, which by Chromium's default refuses every third-party cookie (reason
 * `UserPreferences`), as a private window does; this Chromium refuses them in its regular profile
 * too. The browser therefore starts on a profile folder of its own whose preferences turn that
 * blocking off (`profile.cookie_controls_mode` 0), which its off-the-record contexts inherit;
 * the folder is removed when the browser disconnects. Chromium's other cookie rules stay on
 * (a `SameSite=None` cookie without `Secure` is refused, `Partitioned` cookies are keyed by the
 * top-level site): docs/decisions/page-audit.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { ensureChromium } from '../../scripts/ensure-chromium.mjs';

/** Flags of every headless run of the project on a closed machine: the audit's and the tests'. */
const QUIET_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-quic',
];

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
export const OWN_REQUEST_FEATURES = [
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

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

/** The profile preferences of the audit's browser: third-party cookies allowed in every context, off-the-record ones included. */
export const PROFILE_PREFERENCES = { profile: { cookie_controls_mode: 0 } } as const;

/** A new profile folder holding `PROFILE_PREFERENCES`. */
function profileFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'page-audit-profile-'));
  mkdirSync(join(folder, 'Default'));
  writeFileSync(join(folder, 'Default', 'Preferences'), JSON.stringify(PROFILE_PREFERENCES));
  return folder;
}

const REMOVAL_TRIES = 40;
const REMOVAL_PAUSE_MS = 250;

/**
 * Removes the profile folder once the browser is gone. Its processes may still write to it for
 * a moment after the connection closes, so a failed removal is tried again, every
 * `REMOVAL_PAUSE_MS` up to `REMOVAL_TRIES` times, and once more as Node exits.
 */
function removal(folder: string): () => void {
  let tries = 0;
  const attempt = () => {
    try {
      rmSync(folder, { recursive: true, force: true });
      process.off('exit', attempt);
      return;
    } catch {}
    tries += 1;
    if (tries < REMOVAL_TRIES) setTimeout(attempt, REMOVAL_PAUSE_MS).unref();
  };
  return () => {
    process.once('exit', attempt);
    attempt();
  };
}

const launch = async (isSandboxed: boolean) => {
  const folder = profileFolder();
  const remove = removal(folder);
  try {
    const profile = await chromium.launchPersistentContext(folder, {
      executablePath: ensureChromium(),
      headless: true,
      chromiumSandbox: isSandboxed,
      args: auditBrowserArgs(isSandboxed),
    });
    const browser = profile.browser();
    if (browser === null) {
      await profile.close();
      throw new Error('the browser of the audit profile could not be reached');
    }
    browser.on('disconnected', remove);
    sandboxes.set(browser, isSandboxed);
    return browser;
  } catch (error) {
    remove();
    throw error;
  }
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
