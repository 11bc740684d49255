/** The page audit's guards, as plain rules: the browser's flags, the address rule, the bounds and their options. */
import { describe, expect, it } from 'vitest';
import { auditBrowserArgs, RENDERER_HEAP_MB } from '../../../cli/audit/browser.ts';
import { createBounds } from '../../../cli/audit/bounds.ts';
import { policyFor, refusalOf } from '../../../cli/audit/destination.ts';
import { parseAuditArguments } from '../../../cli/audit/options.ts';

describe('the audit browser flags', () => {
  it('keep the sandbox and site isolation on, and bound the renderer heap', () => {
    const args = auditBrowserArgs(true);
    expect(args).not.toContain('--no-sandbox');
    expect(args.join(' ')).not.toMatch(/site-isolation|site-per-process|IsolateOrigins/);
    expect(args).toContain(`--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`);
    expect(auditBrowserArgs(false)).toContain('--no-sandbox');
  });
});

describe('the address rule', () => {
  const loopback = [{ address: '127.0.0.1', family: 4 }];
  const local = policyFor(new URL('http://127.0.0.1:8080/page.html'), []);

  it('lets a public address through, and the audited page its own host and port', () => {
    expect(
      refusalOf({ host: 'news.example', port: 443, addresses: [{ address: '93.184.216.34', family: 4 }] }, local),
    ).toBeNull();
    expect(refusalOf({ host: '127.0.0.1', port: 8080, addresses: loopback }, local)).toBeNull();
  });

  it('refuses another loopback port or host, a private address behind a public name, and a host it cannot resolve', () => {
    expect(refusalOf({ host: '127.0.0.1', port: 9090, addresses: loopback }, local)).toMatch(
      /^127\.0\.0\.1:9090 is a loopback or private address/,
    );
    expect(refusalOf({ host: 'localhost', port: 8080, addresses: loopback }, local)).toMatch(/loopback or private/);
    expect(
      refusalOf(
        {
          host: 'rebind.example',
          port: 80,
          addresses: [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ],
        },
        local,
      ),
    ).toContain('(10.0.0.1)');
    expect(refusalOf({ host: 'nowhere.example', port: 80, addresses: null }, local)).toBe(
      'the address of nowhere.example could not be resolved',
    );
    expect(
      refusalOf({ host: '127.0.0.1', port: 80, addresses: loopback }, policyFor(new URL('file:///tmp/page.html'), [])),
    ).not.toBeNull();
  });

  it('lets --allow-private hosts through on any port, their subdomains included', () => {
    const policy = policyFor(new URL('http://127.0.0.1:8080/'), ['localhost']);
    expect(refusalOf({ host: 'cdn.localhost', port: 9, addresses: loopback }, policy)).toBeNull();
    expect(refusalOf({ host: 'evillocalhost', port: 9, addresses: loopback }, policy)).not.toBeNull();
  });
});

describe('the audit bounds', () => {
  it('trip once, on the first bound passed, and stop every listener', () => {
    const bounds = createBounds({ timeoutMs: 1_000, maxRecords: 2 });
    const stops: string[] = [];
    bounds.onTrip(() => stops.push('journey'));
    const items: number[] = [];
    const add = bounds.capped(items, 'requests');
    expect([add(1), add(2), add(3)]).toEqual([true, true, false]);
    bounds.trip('deadline', 'later');
    expect(bounds.tripped()).toEqual({ bound: 'records', detail: 'more than 2 requests in one journey' });
    expect(items).toEqual([1, 2]);
    expect(stops).toEqual(['journey']);
    bounds.onTrip(() => stops.push('late'));
    expect(stops).toEqual(['journey', 'late']);
  });

  it('are set by --timeout and --max-records, with documented defaults', () => {
    expect(parseAuditArguments(['--audit', 'a.html'])).toMatchObject({
      limits: { timeoutMs: 120_000, maxRecords: 10_000 },
      isNoSandboxAllowed: false,
      allowPrivate: [],
    });
    expect(
      parseAuditArguments([
        '--audit',
        'a.html',
        '--timeout',
        '5',
        '--max-records=50',
        '--audit-no-sandbox',
        '--allow-private',
        'localhost',
        '10.0.0.2',
      ]),
    ).toMatchObject({
      limits: { timeoutMs: 5_000, maxRecords: 50 },
      isNoSandboxAllowed: true,
      allowPrivate: ['localhost', '10.0.0.2'],
    });
    for (const args of [
      ['--timeout', '0'],
      ['--timeout', '3601'],
      ['--max-records', '0'],
      ['--max-records', 'x'],
      ['--audit-no-sandbox=yes'],
      ['--allow-private', 'a b'],
    ]) {
      expect(parseAuditArguments(['--audit', 'a.html', ...args])).toBeNull();
    }
  });
});
