import { describe, expect, it } from 'vitest';
import { codesOf } from './codes.ts';
import { breakPage } from './pages.ts';

const GEO_CONFIG = '{"ISOCountryGroups": {"eea": ["preset-eea"], "california": ["preset-us-ca"]}}';
const withGeoConfig = (config: string) => breakPage(GEO_CONFIG, config);

describe('checkGeo', () => {
  it('reports what parseGeoConfig finds', () => {
    expect(codesOf(withGeoConfig('{"groups": {}}'))).toContain('geo-config-invalid@warning');
    expect(
      codesOf(withGeoConfig('{"ISOCountryGroups": {"eea": ["preset-eea", "europe"], "california": ["us"]}}')),
    ).toEqual(['geo-country-invalid@warning']);
  });

  it('reports a config that is no JSON as the element does', () => {
    expect(codesOf(withGeoConfig('{"ISOCountryGroups": '))).toContain('geo-config-invalid@warning');
  });

  it('refuses a second config script as the element does (one rule for every component)', () => {
    expect(codesOf(withGeoConfig(`${GEO_CONFIG}</script><script type="application/json">${GEO_CONFIG}`))).toContain(
      'geo-config-invalid@warning',
    );
  });

  it('warns about geoOverride groups that <page-geo> does not define', () => {
    expect(codesOf(withGeoConfig('{"ISOCountryGroups": {"eea": ["preset-eea"]}}'))).toEqual([
      'validate-geo-group-unknown@warning',
    ]);
  });
});
