import { describe, expect, it } from 'vitest';
import { countryOf } from '../../../src/geo/country.ts';

const UNPATCHED = ['{{PAGE_GEO', '_COUNTRY}}'].join('');
const sources = (extra: Partial<Parameters<typeof countryOf>[0]>) => ({
  hash: '',
  hostname: 'news.example',
  allowDebug: false,
  patched: UNPATCHED,
  ...extra,
});

describe('countryOf', () => {
  it('is unknown while the script is unpatched', () => {
    expect(countryOf(sources({}))).toEqual({ country: 'unknown', isDebugIgnored: false });
  });

  it('reads the patched country', () => {
    expect(countryOf(sources({ patched: 'de' })).country).toBe('de');
  });

  it('reads a patched unknown as unknown', () => {
    expect(countryOf(sources({ patched: 'unknown' })).country).toBe('unknown');
  });

  it.each(['localhost', '127.0.0.1', '127.1.2.3', '[::1]'])('honours the debug hash on %s', (hostname) => {
    expect(countryOf(sources({ hostname, hash: '#page-geo=FR', patched: 'de' })).country).toBe('fr');
  });

  it('honours the debug hash with data-allow-debug-override', () => {
    expect(countryOf(sources({ allowDebug: true, hash: '#x=1&page-geo=it' })).country).toBe('it');
  });

  it('honours a debug unknown', () => {
    expect(countryOf(sources({ allowDebug: true, hash: '#page-geo=unknown', patched: 'de' })).country).toBe('unknown');
  });

  it('ignores the debug hash elsewhere and says so', () => {
    expect(countryOf(sources({ hash: '#page-geo=fr', patched: 'de' }))).toEqual({ country: 'de', isDebugIgnored: true });
  });

  it('ignores a malformed debug hash', () => {
    expect(countryOf(sources({ allowDebug: true, hash: '#page-geo=fra', patched: 'de' })).country).toBe('de');
  });
});
