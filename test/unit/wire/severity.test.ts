/**
 * One severity per code (src/wire/severity.ts): the docs' "Error"/"Warning" column and the
 * components' call sites that log a fixed code at a fixed level agree with the table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradedCodes, severityOf } from '../../../src/wire/severity.ts';

const root = resolve(import.meta.dirname, '../../..');

/** Each documented code with the severity its meaning starts with (rows without one are left out). */
function documented(): [string, 'error' | 'warning'][] {
  const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  return [...text.matchAll(/^\| `([a-z0-9-]+)` \| (Error|Warning)\b/gm)].map(([, code, word]) => [
    code!,
    word === 'Warning' ? 'warning' : 'error',
  ]);
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

type Site = { readonly key: string; readonly code?: string; readonly level?: 'warning' | 'error' };

/** A line that passes a level: the code when the line builds its diagnostic, and the level when it is one literal. */
function siteOf(file: string, line: string): Site {
  const key = `${file}: ${line.trim()}`;
  const code = /\bdiagnostic\('([a-z0-9-]+)'/.exec(line)?.[1];
  const literal = /,\s*'(warn|error)'\)/.exec(line)?.[1];
  return { key, ...(code && literal ? { code, level: literal === 'warn' ? 'warning' : 'error' } : {}) };
}

/** Every line of src/ that hands a report function a level ('warn', 'error', or a choice of the two). */
function levelSites(): Site[] {
  return sources('src').flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .filter(
        (line) =>
          /(,\s*'(warn|error)'\)|\?\s*'(warn|error)'\s*:\s*'(warn|error)'\))/.test(line) && !/^\s*(\*|\/\/)/.test(line),
      )
      .map((line) => siteOf(file, line)),
  );
}

/**
 * The call sites that forward a parser's diagnostics at a level: each code the parser reports,
 * by the level the site gives it (a config that fails: its last diagnostic is the error).
 */
const FORWARDED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  "src/geo/element.ts: const report = (d: Diagnostic) => page.report(element, d, 'warn');": {
    warning: ['geo-config-invalid', 'geo-group-invalid', 'geo-country-invalid', 'geo-debug-ignored'],
  },
  "src/auto-ads/element.ts: for (const d of parsed.diagnostics) this.report(d, parsed.value ? 'warn' : 'error');": {
    warning: [
      'auto-ads-field-invalid',
      'auto-ads-no-config-reason',
      'auto-ads-placement-invalid',
      'auto-ads-attribute-dropped',
      'auto-ads-consent-attribute-dropped',
      'auto-ads-url-refused',
      'auto-ads-constraints-invalid',
    ],
    error: ['auto-ads-config-invalid'],
  },
  "src/auto-ads/vignette.ts: for (const d of parsed.diagnostics) report(d, 'warn');": {
    warning: ['auto-ads-field-invalid', 'auto-ads-placement-invalid', 'auto-ads-attribute-dropped'],
  },
  "src/auto-ads/side-rail.ts: for (const d of parsed.diagnostics) report(d, 'warn');": {
    warning: ['auto-ads-field-invalid', 'auto-ads-placement-invalid', 'auto-ads-attribute-dropped'],
  },
  "src/auto-ads/experiment.ts: for (const d of parsed.diagnostics) report(d, 'warn');": {
    warning: ['auto-ads-experiment-invalid'],
  },
  "src/consent/element.ts: for (const d of diagnostics) report(d, d === fatal ? 'error' : 'warn');": {
    warning: ['consent-field-invalid', 'consent-type-unknown', 'consent-geo-instance-id'],
    error: [
      'consent-config-invalid',
      'consent-instance-id',
      'consent-url-invalid',
      'consent-required-missing',
      'consent-required-invalid',
    ],
  },
  "src/consent/element.ts: for (const d of timing?.diagnostics ?? []) report(d, 'warn');": {
    warning: ['consent-policy-invalid', 'consent-lifetime-invalid'],
  },
  "src/consent/controller.ts: for (const d of diagnostics) deps.report(d, 'warn');": {
    warning: ['consent-stored-invalid'],
  },
  "src/consent/controller.ts: for (const d of result?.diagnostics ?? []) deps.report(d, result?.value ? 'warn' : 'error');":
    {
      warning: ['consent-answer-field-invalid'],
      error: ['consent-check-failed', 'remote-answer-too-large'],
    },
  "src/consent/prompt-frame.ts: for (const d of diagnostics) options.report(d, 'warn');": {
    warning: ['consent-cmp-message-invalid'],
  },
  "src/consent/api-guard.ts: bridge(api, (d) => report(d, 'warn')),": {
    warning: ['consent-frame-listeners-exceeded'],
  },
  "src/consent/bounded-source.ts: for (const d of diagnostics) source.report(d, 'warn');": {
    warning: ['consent-additional-consent-invalid'],
  },
  "src/consent-tcf/tc-string-builder.ts: for (const d of diagnostics) report(d, d.code === 'remote-answer-too-large' ? 'error' : 'warn');":
    {
      warning: ['consent-google-atp-list-invalid'],
      error: ['remote-answer-too-large'],
    },
  "src/consent-tcf/tc-string-builder.ts: for (const d of diagnostics) source.report(d, 'warn');": {
    warning: ['consent-tcf-config-invalid', 'consent-tcf-restriction-invalid'],
  },
  "src/consent-tcf/tc-string-builder.ts: for (const d of failures) source.report(d, d.code === 'remote-answer-too-large' ? 'error' : 'warn');":
    {
      warning: ['consent-tcf-vendor-list-failed', 'consent-tcf-vendor-list-invalid'],
      error: ['remote-answer-too-large'],
    },
};

/** Where each forwarded site's codes come from. */
const FORWARDED_SOURCES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.keys(FORWARDED).map((key) => [
    key,
    {
      'src/geo/element.ts': ['src/wire/geo-groups.ts', 'src/geo/element.ts'],
      'src/auto-ads/element.ts': [
        'src/wire/auto-ads-config.ts',
        'src/wire/auto-ads-attributes.ts',
        'src/wire/auto-ads-constraints.ts',
      ],
      'src/auto-ads/vignette.ts': ['src/wire/auto-ads-formats.ts', 'src/wire/auto-ads-attributes.ts'],
      'src/auto-ads/side-rail.ts': ['src/wire/auto-ads-formats.ts', 'src/wire/auto-ads-attributes.ts'],
      'src/auto-ads/experiment.ts': ['src/wire/auto-ads-experiment.ts'],
      'src/consent/element.ts': ['src/wire/consent-config.ts', 'src/wire/consent-lifetime.ts'],
      'src/consent/controller.ts': ['src/wire/consent.ts', 'src/consent/remote.ts', 'src/wire/read-body.ts'],
      'src/consent/prompt-frame.ts': ['src/wire/cmp-message.ts'],
      'src/consent/api-guard.ts': ['src/consent/api-guard.ts'],
      'src/consent/bounded-source.ts': ['src/wire/additional-consent.ts'],
      'src/consent-tcf/tc-string-builder.ts': [
        'src/consent-tcf/vendor-list.ts',
        'src/wire/tcf-settings.ts',
        'src/wire/publisher-tcf.ts',
        'src/wire/gvl.ts',
        'src/wire/read-body.ts',
      ],
    }[key.split(': ')[0]!]!,
  ]),
);

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

  it('lists every code of the components, the validator and the audit that docs/errors.md documents, and no other', () => {
    const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    const documented = [...text.slice(0, text.indexOf('\n## Server')).matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map(
      ([, code]) => code!,
    );
    expect([...gradedCodes()].sort()).toEqual([...new Set(documented)].sort());
  });

  it('lists every code the components and the validator report, the server codes aside', () => {
    const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    const server = new Set(
      [...text.slice(text.indexOf('\n## Server')).matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map(([, code]) => code!),
    );
    const pattern =
      /\b(?:diagnostic|collector|find|fail|withCode\(\s*\w+\s*,)\s*\(?\s*'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'|\bcode: '([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'/g;
    const reported = [...sources('src'), ...sources('cli')].flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(pattern)].map(([, a, b]) => `${file}: ${a ?? b}`),
    );
    expect(reported.length).toBeGreaterThan(80);
    expect(
      reported.filter((site) => !gradedCodes().includes(site.split(': ')[1]!) && !server.has(site.split(': ')[1]!)),
    ).toEqual([]);
  });

  it('agrees with every call site that logs a diagnostic at a level', () => {
    const sites = levelSites();
    expect(sites.length).toBeGreaterThan(15);
    const unchecked = sites.filter((site) => !site.code && !Object.hasOwn(FORWARDED, site.key));
    expect(unchecked.map((site) => site.key)).toEqual([]);
    const wrong = sites.flatMap((site) => {
      const graded = site.code ? { [site.level!]: [site.code] } : FORWARDED[site.key]!;
      return Object.entries(graded).flatMap(([level, codes]) =>
        codes.filter((code) => severityOf(code) !== level).map((code) => `${site.key}: ${code} as ${level}`),
      );
    });
    expect(wrong).toEqual([]);
  });

  it('agrees with every call site that logs a fixed code without a level (the runtime logs it as an error)', () => {
    const sites = sources('src').flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .filter(
          (line) => /\b(report|fail)\w*\(\s*(\w+,\s*)?diagnostic\('/.test(line) && !/,\s*'(warn|error)'\)/.test(line),
        )
        .map((line) => ({ key: `${file}: ${line.trim()}`, code: /diagnostic\('([a-z0-9-]+)'/.exec(line)![1]! })),
    );
    expect(sites.length).toBeGreaterThan(20);
    // <page-geo> and the signal bridges report through a function of their own that gives every diagnostic the warning level.
    const isWarned = (key: string) =>
      key.startsWith('src/geo/element.ts: ') || key.startsWith('src/consent/api-guard.ts: ');
    expect(
      sites.filter(({ key, code }) => severityOf(code) !== (isWarned(key) ? 'warning' : 'error')).map(({ key }) => key),
    ).toEqual([]);
  });

  it('lists only forwarded call sites that exist, with codes their sources report', () => {
    const keys = new Set(levelSites().map((site) => site.key));
    expect(Object.keys(FORWARDED).filter((key) => !keys.has(key))).toEqual([]);
    for (const [key, graded] of Object.entries(FORWARDED)) {
      const text = FORWARDED_SOURCES[key]!.map((file) => readFileSync(join(root, file), 'utf8')).join('\n');
      for (const code of Object.values(graded).flat()) expect(text, `${key}: ${code}`).toContain(`'${code}'`);
    }
  });

  it('refuses a call site whose level disagrees with the table', () => {
    expect(siteOf('src/x.ts', "report(diagnostic('consent-geo-missing', '<page-geo>', null), 'error');")).toMatchObject(
      { code: 'consent-geo-missing', level: 'error' },
    );
    expect(severityOf('consent-geo-missing')).not.toBe('error');
  });
});
