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
    expect(countryOf(sources({}))).toEqual({ country: 'unknown', subdivision: 'unknown', isDebugIgnored: false });
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
    expect(countryOf(sources({ hash: '#page-geo=fr', patched: 'de' }))).toEqual({
      country: 'de',
      subdivision: 'unknown',
      isDebugIgnored: true,
    });
  });

  it('ignores a malformed debug hash', () => {
    expect(countryOf(sources({ allowDebug: true, hash: '#page-geo=fra', patched: 'de' })).country).toBe('de');
  });

  it('reads a patched subdivision with its country', () => {
    expect(countryOf(sources({ patched: 'us-ca' }))).toEqual({
      country: 'us',
      subdivision: 'us-ca',
      isDebugIgnored: false,
    });
    expect(countryOf(sources({ patched: 'gb-eng' }))).toMatchObject({ country: 'gb', subdivision: 'gb-eng' });
  });

  it.each(['us-', 'us-cali', 'US-CA', 'us_ca', 'unknown-ca'])(
    'reads the malformed patched value %j as unknown',
    (patched) => {
      expect(countryOf(sources({ patched }))).toMatchObject({ country: 'unknown', subdivision: 'unknown' });
    },
  );

  it('honours a debug subdivision, in any case, over the patched place', () => {
    expect(countryOf(sources({ hostname: 'localhost', hash: '#page-geo=US-TX', patched: 'us-ca' }))).toEqual({
      country: 'us',
      subdivision: 'us-tx',
      isDebugIgnored: false,
    });
    expect(countryOf(sources({ allowDebug: true, hash: '#a=1&page-geo=us-ca&b=2', patched: 'de' })).subdivision).toBe(
      'us-ca',
    );
  });

  it('gives a debug subdivision as written: the element checks it is known', () => {
    expect(countryOf(sources({ allowDebug: true, hash: '#page-geo=us-zz' }))).toMatchObject({
      country: 'us',
      subdivision: 'us-zz',
    });
  });

  it('ignores a debug subdivision elsewhere and says so', () => {
    expect(countryOf(sources({ hash: '#page-geo=us-ca', patched: 'us-tx' }))).toEqual({
      country: 'us',
      subdivision: 'us-tx',
      isDebugIgnored: true,
    });
  });

  it.each(['#page-geo=us-', '#page-geo=us-cali', '#page-geo=us_ca'])('ignores the malformed debug hash %s', (hash) => {
    expect(countryOf(sources({ allowDebug: true, hash, patched: 'us-ca' }))).toMatchObject({
      country: 'us',
      subdivision: 'us-ca',
    });
  });
});
