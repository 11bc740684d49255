/**
 * `page-validate --audit <url | file> [--pages N] [--format text|json|html] [--out DIR]
 * [--allow host ...] [--allow-private host ...] [--timeout S] [--max-records N]
 * [--declaration FILE] [--compare FILE] [--audit-no-sandbox]`, or `page-validate --audit
 * --sitemap <url>` with the same options (`--pages` then caps the sitemap's pages, 10 by
 * default): the arguments of the audit mode, or null when they are not a valid invocation. `--allow` and `--allow-private` take one or more hosts (repeated, or several after
 * one flag, or comma-separated); a host covers its subdomains.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LIMITS, type Limits } from './bounds.ts';

export type AuditFormat = 'text' | 'json' | 'html';

export type AuditOptions = {
  /** The page; with `--sitemap`, the sitemap (its pages are audited one by one). */
  readonly target: URL;
  /** `--sitemap URL`: `target` is a sitemap; `pages` caps the pages audited from it. */
  readonly isSitemap: boolean;
  /** `--compare FILE`: an earlier report (JSON) this audit is compared with. */
  readonly compare: string | null;
  readonly pages: number;
  readonly format: AuditFormat;
  readonly out: string | null;
  /** `--declaration FILE`: also write the cookie declaration as an HTML page. */
  readonly declaration: string | null;
  readonly allow: readonly string[];
  readonly allowPrivate: readonly string[];
  readonly limits: Limits;
  /** `--audit-no-sandbox`: the reader accepts a browser without its sandbox where it has none. */
  readonly isNoSandboxAllowed: boolean;
};

export const AUDIT_USAGE =
  'usage: page-validate --audit <http(s) URL | file.html> [--pages N] [--format text|json|html] [--out DIR] [--allow host ...] [--allow-private host ...] [--timeout S] [--max-records N] [--declaration FILE] [--compare previous.json] [--audit-no-sandbox]\n       page-validate --audit --sitemap <http(s) URL> [--pages N] [...the same options]';
export const MAX_PAGES = 20;
/** The pages a `--sitemap` audit opens when `--pages` does not say. */
export const SITEMAP_DEFAULT_PAGES = 10;
export const MAX_TIMEOUT_S = 3_600;
export const MAX_RECORDS = 1_000_000;

/** An http(s) URL, a file: URL, or a local path (as a file: URL); null for any other scheme. */
export function readTarget(text: string): URL | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      return ['http:', 'https:', 'file:'].includes(url.protocol) ? url : null;
    } catch {
      return null;
    }
  }
  return text ? pathToFileURL(resolve(text)) : null;
}

const readSitemapUrl = (text: string): URL | null => {
  const url = readTarget(text);
  return url && url.protocol !== 'file:' ? url : null;
};

const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** A whole number in [min, max], or NaN. */
const count = (text: string, min: number, max: number) =>
  /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : Number.NaN;

type Draft = {
  target: URL | null;
  sitemap: URL | null;
  compare: string | null;
  pages: number | null;
  format: string;
  out: string | null;
  declaration: string | null;
  allow: string[];
  allowPrivate: string[];
  timeoutS: number;
  maxRecords: number;
  isNoSandboxAllowed: boolean;
};

/** Reads one flag at `args[index]`; returns the index of its last value, or -1 for an unknown flag. */
function readFlag(args: readonly string[], index: number, draft: Draft): number {
  const [flag, inline] = (args[index] ?? '').split(/=(.*)/s, 2);
  let last = index;
  const value = () => inline ?? args[(last += 1)] ?? '';
  const hosts = () => {
    const list = value().split(',');
    while (inline === undefined && args[last + 1] !== undefined && !args[last + 1]?.startsWith('--'))
      list.push(...(args[(last += 1)] ?? '').split(','));
    return list;
  };
  if (flag === '--audit') {
    // `--audit --sitemap URL`: the audit flag without a page.
    if (inline !== undefined || !args[index + 1]?.startsWith('--')) draft.target = readTarget(value());
  } else if (flag === '--sitemap') draft.sitemap = readSitemapUrl(value());
  else if (flag === '--compare') draft.compare = value();
  else if (flag === '--pages') draft.pages = count(value(), 0, MAX_PAGES);
  else if (flag === '--format') draft.format = value();
  else if (flag === '--out') draft.out = value() || null;
  else if (flag === '--declaration') draft.declaration = value();
  else if (flag === '--allow') draft.allow.push(...hosts());
  else if (flag === '--allow-private') draft.allowPrivate.push(...hosts());
  else if (flag === '--timeout') draft.timeoutS = count(value(), 1, MAX_TIMEOUT_S);
  else if (flag === '--max-records') draft.maxRecords = count(value(), 1, MAX_RECORDS);
  else if (flag === '--audit-no-sandbox' && inline === undefined) draft.isNoSandboxAllowed = true;
  else return -1;
  return last;
}

const readHosts = (hosts: readonly string[]) => {
  const list = hosts.map((host) => host.trim().toLowerCase()).filter(Boolean);
  return list.every((host) => HOST.test(host)) ? list : null;
};

export function parseAuditArguments(args: readonly string[]): AuditOptions | null {
  const draft: Draft = {
    target: null,
    sitemap: null,
    compare: null,
    pages: null,
    format: 'text',
    out: null,
    declaration: null,
    allow: [],
    allowPrivate: [],
    timeoutS: DEFAULT_LIMITS.timeoutMs / 1000,
    maxRecords: DEFAULT_LIMITS.maxRecords,
    isNoSandboxAllowed: false,
  };
  for (let index = 0; index < args.length; index += 1) {
    index = readFlag(args, index, draft);
    if (index < 0) return null;
  }
  const { format, out, declaration, timeoutS, maxRecords, isNoSandboxAllowed, compare } = draft;
  const isSitemap = args.some((arg) => arg === '--sitemap' || arg.startsWith('--sitemap='));
  const target = isSitemap ? (draft.target ? null : draft.sitemap) : draft.target;
  const pages = draft.pages ?? (isSitemap ? SITEMAP_DEFAULT_PAGES : 0);
  const allow = readHosts(draft.allow);
  const allowPrivate = readHosts(draft.allowPrivate);
  if (
    !target ||
    !allow ||
    !allowPrivate ||
    Number.isNaN(pages + timeoutS + maxRecords) ||
    (format !== 'text' && format !== 'json' && format !== 'html') ||
    declaration === '' ||
    compare === '' ||
    (isSitemap && pages < 1)
  )
    return null;
  return {
    target,
    isSitemap,
    compare,
    pages,
    format,
    out,
    declaration,
    allow,
    allowPrivate,
    limits: { timeoutMs: timeoutS * 1000, maxRecords },
    isNoSandboxAllowed,
  };
}
