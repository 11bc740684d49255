/**
 * `page-validate --audit <url | file> [--pages N] [--format text|json|html] [--out DIR]
 * [--allow host ...]`: the arguments of the audit mode, or null when they are not a valid
 * invocation. `--allow` takes one or more hosts (repeated, or several after one flag, or
 * comma-separated); a host covers its subdomains.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export type AuditFormat = 'text' | 'json' | 'html';

export type AuditOptions = {
  readonly target: URL;
  readonly pages: number;
  readonly format: AuditFormat;
  readonly out: string | null;
  readonly allow: readonly string[];
};

export const AUDIT_USAGE = 'usage: page-validate --audit <http(s) URL | file.html> [--pages N] [--format text|json|html] [--out DIR] [--allow host ...]';
export const MAX_PAGES = 20;

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

const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export function parseAuditArguments(args: readonly string[]): AuditOptions | null {
  let target: URL | null = null;
  let pages = 0;
  let format: AuditFormat = 'text';
  let out: string | null = null;
  const allow: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const [flag, inline] = (args[index] ?? '').split(/=(.*)/s, 2);
    const value = () => inline ?? args[(index += 1)] ?? '';
    if (flag === '--audit') {
      target = readTarget(value());
      if (!target) return null;
    } else if (flag === '--pages') {
      const text = value();
      pages = /^\d+$/.test(text) ? Number(text) : -1;
    }
    else if (flag === '--format') format = value() as AuditFormat;
    else if (flag === '--out') out = value() || null;
    else if (flag === '--allow') {
      allow.push(...value().split(','));
      while (inline === undefined && args[index + 1] !== undefined && !args[index + 1]?.startsWith('--')) allow.push(...(args[(index += 1)] ?? '').split(','));
    } else return null;
  }
  const hosts = allow.map((host) => host.trim().toLowerCase()).filter(Boolean);
  if (!target || !(pages >= 0 && pages <= MAX_PAGES) || !['text', 'json', 'html'].includes(format) || !hosts.every((host) => HOST.test(host))) return null;
  return { target, pages, format, out, allow: hosts };
}
