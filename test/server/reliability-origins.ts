/**
 * Hostile `Origin` values for the CORS property of the reliability suite: every way an origin
 * can resemble an allowed one (suffix and prefix tricks, scheme, case, ports, trailing dots,
 * user info, look-alike characters, lists, `null`), hand-written and generated with a fixed seed.
 */
import fc from 'fast-check';

/** Hand-written look-alikes of `allowed` (an https origin without a port). */
export function lookAlikes(allowed: string): string[] {
  const { host, hostname } = new URL(allowed);
  const [label, ...rest] = hostname.split('.');
  const tld = rest.join('.');
  return [
    'null',
    '',
    `https://${hostname}.evil`,
    `https://${hostname}.evil.example`,
    `https://evil${hostname}`,
    `https://evil-${hostname}`,
    `https://evil.${hostname}`,
    `https://${label}${tld}`,
    `https://${label}-${tld}`,
    `https://${label}.${tld}evil`,
    `https://${hostname}.`,
    `https://${hostname}..`,
    `http://${host}`,
    `HTTPS://${host}`,
    `https://${host.toUpperCase()}`,
    `https://${label!.toUpperCase()}.${tld}`,
    `https://${host}:443`,
    `https://${host}:8443`,
    `https://${host}:0`,
    `https://${host}:65536`,
    `https://${host}/`,
    `https://${host}/path`,
    `${allowed},https://evil.example`,
    `https://evil.example,${allowed}`,
    `${allowed} https://evil.example`,
    `https://${host}@evil.example`,
    `https://evil.example@${host}`,
    `https://evil.example#${host}`,
    `https://evil.example?${host}`,
    `https://${hostname.replace('e', '\u00e9')}`,
    `https://${hostname.replace('e', 'xn--e')}`,
    `ws://${host}`,
    `file://${host}`,
    `//${host}`,
    host,
    `https://${host}%2eevil`,
    '*',
    'https://*',
    `https://*.${tld}`,
  ];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.';

/** `count` generated origins near `allowed`, none equal to it (fixed seed: the same every run). */
export function generatedOrigins(allowed: string, count: number, seed = 1_611_202_616): string[] {
  const { hostname } = new URL(allowed);
  const scheme = fc.constantFrom('https://', 'http://', 'HTTPS://', 'Https://', 'wss://', '');
  const noise = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 1, maxLength: 6 });
  const host = fc.oneof(
    noise.map((n) => `${n}${hostname}`),
    noise.map((n) => `${hostname}${n}`),
    noise.map((n) => `${n}.${hostname}`),
    noise.map((n) => `${hostname}.${n}`),
    fc.nat(hostname.length - 1).map((i) => hostname.slice(0, i) + hostname[i]!.toUpperCase() + hostname.slice(i + 1)),
    fc.nat(hostname.length - 1).map((i) => hostname.slice(0, i) + hostname.slice(i + 1)),
    fc.constant(`${hostname}.`),
    fc.constant(hostname),
  );
  const port = fc.oneof(
    fc.constant(''),
    fc.integer({ min: 0, max: 70_000 }).map((p) => `:${p}`),
    fc.constantFrom(':443', ':80', ':', ':0443'),
  );
  const tail = fc.constantFrom('', '', '/', '.', '/x', '?a', '#a', '%2e');
  const origin = fc.tuple(scheme, host, port, tail).map((parts) => parts.join(''));
  const values = fc.sample(origin, { numRuns: count * 4, seed }).filter((value) => value !== allowed);
  return [...new Set(values)].slice(0, count);
}
