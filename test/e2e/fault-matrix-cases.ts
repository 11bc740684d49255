/**
 * The fault matrix (docs/reliability.md, "Fault matrix"): every remote or untrusted source of the consent and auto
 * ads components x the faults that apply to it, each with the end state the docs define. One
 * row is one case; `fault-matrix.test.ts` runs them in Chromium and checks the end state, the
 * one diagnostic, the network log and the stored decision.
 */
import { PROMPT, POST_PROMPT } from './consent-fixtures.ts';
import type { Reply, Route } from './harness.ts';
import { CONFIG } from './fixtures/auto-ads/pages.ts';

export type Source =
  | 'checkConsentHref'
  | 'checkConsentHref (cached)'
  | 'onUpdateHref'
  | 'auto-ads config'
  | 'CMP iframe'
  | 'localStorage';

/** What the page shows at the end: the consent state and which blocking policies built. */
export type EndState = {
  /** The last `consent-change` state; null: none expected (auto ads). */
  readonly state: 'unknown' | 'accepted' | 'rejected' | null;
  /** `#prompt` (the inline prompt) is shown. */
  readonly isPromptShown: boolean;
  /** The probes (blocking policies of consent-fixtures) that build, and so may be requested. */
  readonly built: readonly string[];
};

export type FaultCase = {
  readonly source: Source;
  readonly fault: string;
  /** The diagnostic code, or null where the docs define the answer as no fault (see `note`). */
  readonly code: string | null;
  /** A part of the diagnostic's "got" (one of them, where the fault may show in two ways). */
  readonly got?: string | readonly string[];
  readonly end: EndState;
  /** The fault needs the 10 s time-out: the case runs the page's clock past it. */
  readonly isSlow: boolean;
  readonly note?: string;
};

export const SLOW_FAULTS = new Set([
  'never answers',
  'answers after the time-out',
  'iframe never sends ready',
  'messages from foreign windows',
]);

export const UNDECIDED = ['open', 'auto-reject'];
export const REJECTED = ['open', 'till-responded', 'auto-reject'];

/** The HTTP faults, each as a route answering with (a broken form of) `valid`. */
export const HTTP_FAULTS = [
  'HTTP 500',
  'HTTP 404',
  'never answers',
  'answers after the time-out',
  'CORS refusal',
  'invalid JSON',
  'empty body',
  'xssi prefix mismatch',
  '5 MB body',
] as const;
export type HttpFault = (typeof HTTP_FAULTS)[number];

export const XSSI_PREFIX = ")]}'";
const JSON_HEADERS = { 'content-type': 'application/json' };
const FIVE_MB = 5 * 1024 * 1024;

/**
 * The route of an HTTP fault; `valid` is an answer that would unblock or place ads if it were
 * applied. A late answer waits for `late` (the test resolves it once the page's clock has run
 * past the time-out).
 */
export function httpFaultRoute(fault: HttpFault, valid: string, late: Promise<void>): Route {
  const reply = (r: Reply): Reply => ({ ...r, headers: { ...JSON_HEADERS, ...r.headers } });
  switch (fault) {
    case 'HTTP 500':
      return reply({ status: 500, body: valid });
    case 'HTTP 404':
      return reply({ status: 404, body: '{"error":"not found"}' });
    case 'never answers':
      return () => new Promise<never>(() => {});
    case 'answers after the time-out':
      return () => late.then(() => reply({ body: valid }));
    case 'CORS refusal':
      return reply({ body: valid, headers: { 'access-control-allow-origin': 'http://elsewhere.example' } });
    case 'invalid JSON':
      return reply({ body: valid.slice(0, -2) });
    case 'empty body':
      return reply({ body: '' });
    case 'xssi prefix mismatch':
      return reply({ body: `while(1);${valid}` });
    case '5 MB body':
      return reply({ body: `${valid.slice(0, -1)},"pad":"${'x'.repeat(FIVE_MB)}` });
  }
}

/** A check answer that would accept, were it applied. */
export const CHECK_ANSWER = JSON.stringify({
  consentRequired: true,
  consentStateValue: 'accepted',
  consentString: 'FAULT',
});
export const UPDATE_ANSWER = JSON.stringify({ receiptId: 'receipt-1' });
export const ADS_ANSWER = JSON.stringify(CONFIG);

const CHECK_GOT: Record<HttpFault, string | readonly string[]> = {
  'HTTP 500': '"HTTP 500"',
  'HTTP 404': '"HTTP 404"',
  'never answers': '"no answer within 10 s"',
  'answers after the time-out': '"no answer within 10 s"',
  'CORS refusal': '"network or CORS error"',
  'invalid JSON': '"invalid JSON"',
  'empty body': '"invalid JSON"',
  'xssi prefix mismatch': '"invalid JSON"',
  '5 MB body': '"more from http',
};

/** A 5 MB body passes every byte cap (docs/reliability.md, "Byte caps"): the read stops there, with its own code. */
const TOO_LARGE = 'remote-answer-too-large';

const ADS_GOT: Record<HttpFault, string | readonly string[]> = {
  'HTTP 500': '"HTTP 500"',
  'HTTP 404': '"HTTP 404"',
  'never answers': 'TimeoutError',
  'answers after the time-out': 'TimeoutError',
  'CORS refusal': 'Failed to fetch',
  'invalid JSON': '"{"placements"',
  'empty body': '""',
  'xssi prefix mismatch': '"while(1);',
  '5 MB body': '"more from http',
};

const isBodyFault = (fault: HttpFault) =>
  fault === 'invalid JSON' || fault === 'empty body' || fault === '5 MB body' || fault === 'xssi prefix mismatch';

function checkCases(): FaultCase[] {
  const rows: FaultCase[] = [];
  for (const fault of HTTP_FAULTS) {
    const isSlow = SLOW_FAULTS.has(fault);
    const code = fault === '5 MB body' ? TOO_LARGE : 'consent-check-failed';
    // docs/consent.md, "Remote check": required and unknown, the prompt shows, nothing unblocks.
    rows.push({
      source: 'checkConsentHref',
      fault,
      code,
      got: CHECK_GOT[fault],
      isSlow,
      end: { state: 'unknown', isPromptShown: true, built: UNDECIDED },
    });
    // A cached decision applies at once; the failed check changes nothing and keeps it.
    rows.push({
      source: 'checkConsentHref (cached)',
      fault,
      code,
      got: CHECK_GOT[fault],
      isSlow,
      end: { state: 'rejected', isPromptShown: false, built: REJECTED },
    });
  }
  return rows;
}

function updateCases(): FaultCase[] {
  // The reader rejects; the decision is cached whatever the endpoint does (docs/errors.md).
  const end: EndState = { state: 'rejected', isPromptShown: false, built: REJECTED };
  return HTTP_FAULTS.filter((fault) => fault !== 'xssi prefix mismatch').map((fault) =>
    fault === '5 MB body'
      ? {
          source: 'onUpdateHref',
          fault,
          code: TOO_LARGE,
          got: CHECK_GOT[fault],
          isSlow: false,
          end,
          note: 'the answer past its 16 KiB cap is not read: no receipt',
        }
      : isBodyFault(fault)
        ? {
            source: 'onUpdateHref',
            fault,
            code: null,
            isSlow: false,
            end,
            note: 'a 2xx answer acknowledges the update; its body only carries the optional receipt (docs/server.md, "Proving consent"): no receipt, no diagnostic',
          }
        : {
            source: 'onUpdateHref',
            fault,
            code: 'consent-update-failed',
            got: CHECK_GOT[fault],
            isSlow: SLOW_FAULTS.has(fault),
            end,
          },
  );
}

function adsCases(): FaultCase[] {
  // docs/auto-ads.md, "Element": one diagnostic, no ads. The config has no xssi prefix option.
  return HTTP_FAULTS.filter((fault) => fault !== 'xssi prefix mismatch').map((fault) => ({
    source: 'auto-ads config',
    fault,
    code:
      fault === '5 MB body'
        ? TOO_LARGE
        : isBodyFault(fault)
          ? 'auto-ads-config-invalid'
          : 'auto-ads-config-fetch-failed',
    got: ADS_GOT[fault],
    isSlow: SLOW_FAULTS.has(fault),
    end: { state: null, isPromptShown: false, built: [] },
  }));
}

/** The CMP frame faults; every one ends with the ready time-out and the inline prompt (docs/consent.md, "The CMP iframe"). */
export const FRAME_FAULTS = [
  'HTTP 500',
  'HTTP 404',
  'never answers',
  'answers after the time-out',
  'frame-ancestors refusal',
  'invalid JSON',
  'empty body',
  '5 MB body',
  'iframe never sends ready',
  'messages from foreign windows',
] as const;
export type FrameFault = (typeof FRAME_FAULTS)[number];

function frameCases(): FaultCase[] {
  const end: EndState = { state: 'unknown', isPromptShown: true, built: UNDECIDED };
  return FRAME_FAULTS.map((fault) => ({
    source: 'CMP iframe',
    fault,
    code: 'consent-prompt-frame-timeout',
    got: '/cmp',
    isSlow: true,
    end,
  }));
}

/** A CMP page that would accept, were its messages taken. */
const cmpPage = (script: string, extra = '') =>
  `<!doctype html><html lang="en"><head><title>CMP</title></head><body><p>CMP</p>${extra}<script>${script}</script></body></html>`;
const ACCEPT = `parent.postMessage({ type: 'consent-ui', action: 'ready' }, '*'); parent.postMessage({ type: 'consent-response', action: 'accept', info: 'FAULT' }, '*');`;

/** The route of the `promptUiSrc` page for a frame fault. */
export function frameFaultRoute(fault: FrameFault): Route {
  const html = (body: string, r: Reply = {}): Reply => ({
    ...r,
    body,
    headers: { 'content-type': 'text/html', ...r.headers },
  });
  switch (fault) {
    case 'HTTP 500':
      return html('<!doctype html><title>error</title><p>Internal error</p>', { status: 500 });
    case 'HTTP 404':
      return html('<!doctype html><title>missing</title><p>Not found</p>', { status: 404 });
    case 'never answers':
      return () => new Promise<never>(() => {});
    case 'answers after the time-out':
      // The frame's timer runs on the page's clock too: half a second after the ready time-out.
      return html(cmpPage(`setTimeout(() => { ${ACCEPT} }, 10_500);`));
    case 'frame-ancestors refusal':
      return html(cmpPage(ACCEPT), { headers: { 'content-security-policy': "frame-ancestors 'none'" } });
    case 'invalid JSON':
      // JSON text instead of message objects: not a message of the protocol.
      return html(
        cmpPage(
          `parent.postMessage('{"type":"consent-ui","action":"ready"}', '*'); parent.postMessage('{"type":"consent-response","action":"accept"', '*');`,
        ),
      );
    case 'empty body':
      return html('');
    case '5 MB body':
      return html(cmpPage('', `<!-- ${'x'.repeat(FIVE_MB)} -->`));
    case 'iframe never sends ready':
    case 'messages from foreign windows':
      return html(cmpPage(''));
  }
}

/** Served at `/foreign.html` on the CMP's origin: another window posting the whole protocol. */
export const FOREIGN_FRAME = cmpPage(`setInterval(() => { ${ACCEPT} }, 300);`);
/** In the page itself: the page's own window posting the protocol. */
export const FOREIGN_SCRIPT = `<script>setInterval(() => { ${ACCEPT.replaceAll('parent.', 'window.')} }, 300);</script>`;

export const STORAGE_FAULTS = [
  'getItem throws',
  'setItem throws',
  'quota exceeded',
  'invalid JSON (corrupt item)',
] as const;
export type StorageFault = (typeof STORAGE_FAULTS)[number];

function storageCases(): FaultCase[] {
  return [
    // Nothing readable: no decision for this page view, the prompt shows (docs/errors.md).
    {
      source: 'localStorage',
      fault: 'getItem throws',
      code: 'storage-unavailable',
      got: '"SecurityError"',
      isSlow: false,
      end: { state: 'unknown', isPromptShown: true, built: UNDECIDED },
    },
    // The reader confirms the stored rejection; the write fails, the page keeps the choice in memory.
    {
      source: 'localStorage',
      fault: 'setItem throws',
      code: 'storage-unavailable',
      got: '"SecurityError"',
      isSlow: false,
      end: { state: 'rejected', isPromptShown: false, built: REJECTED },
    },
    {
      source: 'localStorage',
      fault: 'quota exceeded',
      code: 'storage-unavailable',
      got: '"QuotaExceededError"',
      isSlow: false,
      end: { state: 'rejected', isPromptShown: false, built: REJECTED },
    },
    {
      source: 'localStorage',
      fault: 'invalid JSON (corrupt item)',
      code: 'storage-corrupt',
      got: '"{not json',
      isSlow: false,
      end: { state: 'unknown', isPromptShown: true, built: UNDECIDED },
    },
  ];
}

/** Runs before any page script: overrides Storage for the fault, keeps the real methods for the test. */
export function storageFaultScript(fault: StorageFault | null): string {
  const error =
    fault === 'quota exceeded'
      ? `new DOMException("Failed to execute 'setItem' on 'Storage': Setting the value exceeded the quota.", 'QuotaExceededError')`
      : `new DOMException('The operation is insecure.', 'SecurityError')`;
  const method =
    fault === 'getItem throws'
      ? 'getItem'
      : fault === 'setItem throws' || fault === 'quota exceeded'
        ? 'setItem'
        : null;
  return `window.__realStorage = { getItem: Storage.prototype.getItem, setItem: Storage.prototype.setItem };
${method ? `Storage.prototype.${method} = function () { throw ${error}; };` : ''}`;
}

export const CORRUPT_ITEM = '{not json, not base64}';

/** The inline prompt, post-prompt and the consent element's config for each consent source. */
export const INLINE_UI = PROMPT + POST_PROMPT;

export const FAULT_CASES: readonly FaultCase[] = [
  ...checkCases(),
  ...updateCases(),
  ...adsCases(),
  ...frameCases(),
  ...storageCases(),
];
