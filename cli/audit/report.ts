/**
 * The audit report, as the JSON output carries it (schema: docs/audit-report.schema.json,
 * `schemaVersion` 1; fields are only ever added). Times are milliseconds relative to the
 * decision (negative before it); `phase` says on which side of it an event happened.
 */
export const SCHEMA_VERSION = 1;

export type Phase = 'before' | 'after';
/** finding: judged a leak. allowed: by `--allow`. expected: the consent components and endpoints.
 * permitted: after a reject, by an element or script the config lets run then. ok: nothing to say. */
export type Verdict = 'finding' | 'allowed' | 'expected' | 'permitted' | 'ok';
export type Party = 'first' | 'third';

/** Who caused it: the immediate initiator first, then what loaded it, up to the page. */
export type Initiator = {
  readonly chain: readonly string[];
  /** The tag on the page that started it: its kind and URL (null for an inline script). */
  readonly tag: { readonly kind: TagKind; readonly url: string | null };
};
export type TagKind = 'element' | 'script' | 'inline-script' | 'image' | 'frame' | 'other';

type Event = {
  readonly t: number;
  readonly phase: Phase;
  readonly page: string;
  readonly verdict: Verdict;
  readonly initiator: Initiator;
};

export type RequestEvent = Event & {
  readonly url: string;
  readonly method: string;
  readonly type: string;
  readonly party: Party;
  readonly isBeacon: boolean;
};
export type CookieEvent = Event & {
  readonly name: string;
  readonly domain: string;
  readonly party: Party;
  readonly expires: string | null;
  readonly isPersistent: boolean;
  readonly setBy: 'header' | 'script';
  /** The response that set it, or the script that wrote it. */
  readonly source: string;
};
/** A `Set-Cookie` line of a response that the browser did not store: not a finding, nothing was set. */
export type RefusedCookie = {
  readonly t: number;
  readonly phase: Phase;
  readonly page: string;
  /** The cookie's name as the line gives it ('' for a line without one). */
  readonly name: string;
  readonly line: string;
  /** Chromium's reasons (`SameSiteNoneInsecure`, `SecureOnly`, `SameSiteUnspecifiedTreatedAsLax`, ...). */
  readonly reasons: readonly string[];
  /** The response whose header carried the line. */
  readonly source: string;
  /** Who caused that request. */
  readonly initiator: Initiator;
};
export type StorageEvent = Event & {
  readonly kind: 'localStorage' | 'sessionStorage' | 'indexedDB';
  readonly key: string;
  readonly origin: string;
  /** The script that wrote it, or null when the stack named none. */
  readonly writer: string | null;
  readonly party: Party;
};
export type BuiltEvent = {
  readonly t: number;
  readonly phase: Phase;
  readonly kind: 'element' | 'script';
  readonly tag: string;
  readonly block: string | null;
  readonly purposes: string | null;
  readonly src: string | null;
};

/** What a finding is about: a leak (request, cookie, storage), the prompt (accessibility) or a consent string. */
export type Subject = 'request' | 'cookie' | 'storage' | 'prompt' | 'signal';
export type AuditFinding = {
  readonly code: string;
  readonly subject: Subject;
  readonly phase: Phase;
  readonly t: number;
  /** The request URL, `name (domain)` of a cookie, or `kind key (origin)` of a storage write. */
  readonly what: string;
  readonly message: string;
  readonly initiator: Initiator;
  readonly hint: string;
  /** The page the journey was on: the event's page for a leak, the first page for the prompt and the strings (absent in reports before it was added). */
  readonly page?: string;
};
/** A request the address guard did not let through (a loopback or private address, or one it could not resolve). */
export type BlockedItem = { readonly url: string; readonly reason: string };
export type AllowedItem = {
  readonly allow: string;
  readonly subject: Subject;
  readonly what: string;
  readonly phase: Phase;
};

export type JourneyReport = {
  readonly name: 'no-decision' | 'reject' | 'accept';
  readonly status: 'run' | 'not-run';
  /** Why the journey was not run (`no prompt shown`, `page unreachable: ...`). */
  readonly reason: string | null;
  readonly decidedBy: string | null;
  readonly decisionAt: string;
  readonly pages: readonly string[];
  readonly findings: readonly AuditFinding[];
  readonly allowed: readonly AllowedItem[];
  readonly requests: readonly RequestEvent[];
  readonly cookies: readonly CookieEvent[];
  /** `Set-Cookie` lines the browser refused, with its reasons. */
  readonly refusedCookies: readonly RefusedCookie[];
  readonly storage: readonly StorageEvent[];
  readonly built: readonly BuiltEvent[];
  readonly blocked: readonly BlockedItem[];
  /** The prompt's accessibility in this journey (prompt-access.ts), or null where no prompt showed. */
  readonly prompt?: PromptAccess | null;
  /** The strings the page published at the end of this journey, decoded (signals.ts), or null where not read. */
  readonly signals?: SignalsView | null;
};

/** One view of the prompt checked with axe-core: the first layer, or the second layer its settings control opens. */
export type PromptLayer = {
  readonly layer: 'first' | 'second';
  /** Where it ran: `page` for an inline prompt, else the CMP frame's URL. */
  readonly frame: string;
  /** How the second layer was opened (the control's name), or null. */
  readonly openedBy: string | null;
  readonly violations: readonly AxeViolation[];
};
export type AxeViolation = {
  readonly rule: string;
  readonly impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  readonly help: string;
  readonly helpUrl: string;
  /** The CSS selectors axe-core gives for the failing nodes (at most 20). */
  readonly selectors: readonly string[];
};
export type PromptAccess = {
  /** Empty when axe-core could not run (the reason is in `error`). */
  readonly layers: readonly PromptLayer[];
  readonly keyboard: KeyboardWalk | null;
  readonly error: string | null;
};
export type KeyboardWalk = {
  /** Whether the prompt says it is modal (`aria-modal="true"` or a modal `<dialog>`). */
  readonly isModal: boolean;
  /** The prompt's controls, by name, and those Tab never reached. */
  readonly controls: readonly string[];
  readonly unreached: readonly string[];
  /** The elements outside a modal prompt that Tab moved focus to (empty: focus held). */
  readonly escapedTo: readonly string[];
  /** After the decision closed the prompt: where focus was, or null when not checked (no decision). */
  readonly focusAfterClose: string | null;
  readonly isFocusLost: boolean | null;
};

/** How an API answered: `none` (not on the page), `no-answer` (time-out), `unreadable` (an answer that does not parse or decode), `read`. */
export type ApiStatus = 'none' | 'no-answer' | 'unreadable' | 'read';
export type TcView = {
  readonly tcString: string;
  readonly gdprApplies: boolean | null;
  readonly eventStatus: string | null;
  readonly cmpId: number;
  readonly cmpVersion: number;
  readonly policyVersion: number;
  readonly version: number;
  readonly isServiceSpecific: boolean;
  readonly purposeConsents: readonly number[];
  readonly purposeLegitimateInterests: readonly number[];
  readonly specialFeatureOptins: readonly number[];
  readonly vendorConsents: readonly number[];
  readonly vendorLegitimateInterests: readonly number[];
  /** The DisclosedVendors segment's vendors, or null when the string has no such segment. */
  readonly disclosedVendors: readonly number[] | null;
  /** 0: not allowed, 1: consent required, 2: legitimate interest required. */
  readonly publisherRestrictions: readonly {
    readonly purpose: number;
    readonly type: number;
    readonly vendors: readonly number[];
  }[];
  /** Google's Additional Consent string (`addtlConsent`), as the page gave it. */
  readonly addtlConsent: string | null;
};
export type GppView = {
  readonly gppString: string;
  readonly applicableSections: readonly number[];
  readonly sections: readonly {
    readonly id: number;
    readonly name: string;
    readonly fields: Readonly<Record<string, unknown>>;
  }[];
};
export type UspView = {
  readonly uspString: string;
  readonly version: number;
  /** `Y`, `N` or `-` (not applicable), as the string's characters 2 to 4 give them. */
  readonly notice: string;
  readonly optOutSale: string;
  readonly lspa: string;
};
export type ApiRead<T> = { readonly status: ApiStatus; readonly detail: string | null; readonly value: T | null };
/** What Prebid's rules would let one vendor do, by the journey's strings (docs/decisions/page-audit-vendors-view.md). */
export type PrebidRow = {
  /** The GVL id, or null for the row that stands for every vendor (a page with a US string only). */
  readonly vendor: number | null;
  readonly syncUser: boolean;
  readonly fetchBids: boolean;
  readonly transmitEids: boolean;
  /** The rules that denied something: `tcfControl purpose 1`, `gppControl_usnat`, ... */
  readonly deniedBy: readonly string[];
};
export type SignalsView = {
  /** Ms after the page's response started to arrive (`responseStart`) when `__tcfapi` first answered `ping`; null when it did not within the journey. */
  readonly tcfFirstAnswerMs: number | null;
  /** Ms after the page's response started to arrive when `__tcfapi` first reported `tcloaded` (or `useractioncomplete`); null when never. */
  readonly tcLoadedMs: number | null;
  readonly tcf: ApiRead<TcView>;
  readonly gpp: ApiRead<GppView>;
  readonly usp: ApiRead<UspView>;
  readonly prebid: readonly PrebidRow[];
};

/** The GPC visit (gpc-visit.ts): whether the page honoured the signal (`page-consent-gpc-honored`) and said so ("Opt-out request honored" in its visible text). */
export type GpcView = { readonly honored: boolean; readonly noticeShown: boolean };

/** The bound that stopped the audit (deadline, records, memory) and what passed it. */
export type Incomplete = { readonly bound: 'deadline' | 'records' | 'memory'; readonly detail: string };

export type AuditReport = {
  readonly schemaVersion: typeof SCHEMA_VERSION;
  readonly url: string;
  readonly site: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly options: {
    readonly pages: number;
    readonly allow: readonly string[];
    readonly allowPrivate: readonly string[];
    readonly timeoutMs: number;
    readonly maxRecords: number;
  };
  /** Whether the browser ran with its sandbox; false under `--audit-no-sandbox`, null for a browser the audit did not launch. */
  readonly isSandboxed: boolean | null;
  /** Null when the audit ran to its end; else the bound that stopped it: its journeys are partial. */
  readonly incomplete: Incomplete | null;
  readonly isPromptShown: boolean;
  /** The fair-choice rule on the prompt as shown: what makes its reject control less prominent
   * than its accept control (empty: none), or null when no prompt showed both. Warnings: not
   * counted in `findingCount`. */
  readonly fairChoice: readonly string[] | null;
  /** The GPC visit on a page set up for US readers, or null (not set up for them, or the visit did not run:
   * `gpcNotRun` says why). Honoured without the notice is the warning `audit-gpc-notice-missing`, not
   * counted in `findingCount`. Absent in reports from before it was added. */
  readonly gpc?: GpcView | null;
  /** Why the GPC visit of a page set up for US readers did not run to its end (absent when it did or was not due). */
  readonly gpcNotRun?: string;
  readonly findingCount: number;
  readonly journeys: readonly JourneyReport[];
  /** Every cookie and storage item of the journeys once, for the page's cookie declaration (declaration.ts). */
  readonly declaration: readonly DeclarationItem[];
  /** PNG of the page as a reader first sees it, with its prompt; a file name with `--out`. */
  readonly screenshot: string | null;
  /** Findings by rule and the pages affected (site-summary.ts): the page and the links `--pages` followed. */
  readonly summary?: SiteSummary;
  /** With `--compare`: what is new, gone and changed since the earlier report (compare.ts). */
  readonly comparison?: Comparison | null;
};

/** One line of the cookie declaration (declaration.ts builds them). */
export type DeclarationKind = 'cookie' | StorageEvent['kind'];

export type DeclarationItem = {
  readonly kind: DeclarationKind;
  readonly name: string;
  /** A cookie's domain as the browser stored it, or a storage item's origin. */
  readonly domain: string;
  readonly party: Party;
  /** The site of the response or script that set it; null when the stack named no script. */
  readonly setBySite: string | null;
  /** The response that set it or the script that wrote it; null when the stack named none. */
  readonly source: string | null;
  readonly isPersistent: boolean;
  /** Seconds from the write to the expiry the browser stored; null for a session cookie or a storage item (no expiry). */
  readonly lifetimeSeconds: number | null;
  readonly journeys: readonly JourneyReport['name'][];
  /** The tag on the page that set it, as its first write names it. */
  readonly tag: Initiator['tag'];
  readonly category: string;
};

/** The site summary (site-summary.ts). */
export type RuleSummary = {
  readonly code: string;
  readonly findings: number;
  /** The pages with a finding of this rule, in the order they were audited. */
  readonly pages: readonly string[];
};

export type SiteSummary = {
  /** The pages audited: each report's page and the pages its journeys followed, once each. */
  readonly pages: number;
  readonly pagesWithFindings: number;
  readonly findingCount: number;
  /** The rules with findings, most findings first (then by code). */
  readonly rules: readonly RuleSummary[];
};

/** What changed since an earlier report (compare.ts). */
export type ComparedRule = {
  readonly page: string;
  readonly code: string;
  readonly before: number;
  readonly now: number;
  /** Subjects (without their query) found now and not before, and the reverse; at most 10 each. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
};
export type Comparison = {
  readonly previousStartedAt: string | null;
  readonly new: readonly ComparedRule[];
  readonly gone: readonly ComparedRule[];
  readonly changed: readonly ComparedRule[];
  readonly unchanged: number;
  readonly pagesOnlyBefore: readonly string[];
  readonly pagesOnlyNow: readonly string[];
};

/**
 * The report of a site audit (`--sitemap`): each page's own report, the site summary and, with
 * `--compare`, what changed since the earlier report (site-audit.ts).
 */
export type SiteReport = {
  readonly schemaVersion: typeof SCHEMA_VERSION;
  readonly kind: 'site';
  /** The sitemap asked for, and the sitemaps read (an index and the sitemaps it lists). */
  readonly sitemap: string;
  readonly sitemaps: readonly string[];
  /** The pages the sitemaps listed on their origin, and those elsewhere (left out). */
  readonly listed: number;
  readonly outside: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly options: AuditReport['options'];
  readonly findingCount: number;
  /** Whether a bound stopped the audit of one of the pages. */
  readonly isIncomplete: boolean;
  readonly summary: SiteSummary;
  readonly comparison: Comparison | null;
  /** Every cookie and storage item of every page, once (declaration.ts). */
  readonly declaration: readonly DeclarationItem[];
  readonly pages: readonly AuditReport[];
};
