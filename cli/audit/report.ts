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

export type Subject = 'request' | 'cookie' | 'storage';
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
};

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
  readonly findingCount: number;
  readonly journeys: readonly JourneyReport[];
  /** Every cookie and storage item of the journeys once, for the page's cookie declaration (declaration.ts). */
  readonly declaration: readonly DeclarationItem[];
  /** PNG of the page as a reader first sees it, with its prompt; a file name with `--out`. */
  readonly screenshot: string | null;
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
