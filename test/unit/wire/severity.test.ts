/**
 * One severity per code (src/wire/severity.ts): the docs' "Error"/"Warning" column and the
 * components' call sites that log a fixed code at a fixed level agree with the table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { severityOf } from '../../../src/wire/severity.ts';

const root = resolve(import.meta.dirname, '../../..');

/** Each documented code with the severity its meaning starts with (rows without one are left out). */
function documented(): [string, 'error' | 'warning'][] {
  const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  return [...text.matchAll(/^\| `([a-z0-9-]+)` \| (Error|Warning)\b/gm)].map(([, code, word]) => [code!, word === 'Warning' ? 'warning' : 'error']);
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('severity table', () => {
  it('grades every code as docs/errors.md does', () => {
    const codes = documented();
    expect(codes.length).toBeGreaterThan(70);
    expect(codes.filter(([code, severity]) => severityOf(code) !== severity)).toEqual([]);
  });

  it('grades unknown and server codes as errors', () => {
    expect(severityOf('consent-config-invalid')).toBe('error');
    expect(severityOf('geo-config-invalid')).toBe('warning');
    expect(severityOf('no-such-code')).toBe('error');
  });

  it('agrees with the components that log a fixed code at a fixed level', () => {
    const sites = sources('src').flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/diagnostic\('([a-z0-9-]+)'[^;]*?\)\s*,\s*'(warn|error)'\)/g)].map(([, code, level]) => ({ file, code: code!, level: level === 'warn' ? 'warning' : 'error' })),
    );
    expect(sites.length).toBeGreaterThan(5);
    expect(sites.filter(({ code, level }) => severityOf(code) !== level)).toEqual([]);
  });
});
