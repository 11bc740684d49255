// @vitest-environment happy-dom
/**
 * The one rule for a component's JSON config script (src/browser-shared/config-script.ts), and
 * the code each component reports when the rule gives no config (docs/errors.md).
 */
import { describe, expect, it } from 'vitest';
import { readConfigScript } from '../../../src/browser-shared/config-script.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';
import { parseGeoConfig } from '../../../src/wire/geo-groups.ts';
import { parseStoryJson } from '../../../src/wire/story-config.ts';
import { collector } from '../../../src/wire/values.ts';

function element(html: string): Element {
  const host = document.createElement('page-geo');
  host.innerHTML = html;
  return host;
}

const json = (text: string) => `<script type="application/json">${text}</script>`;

describe('readConfigScript', () => {
  it('reads the JSON of the one direct child script', () => {
    expect(readConfigScript(element(json('{"ISOCountryGroups": {"eea": ["de"]}}')))).toEqual({
      ISOCountryGroups: { eea: ['de'] },
    });
    expect(readConfigScript(element(`<script>var x = 1;</script>${json('[1, 2]')}`))).toEqual([1, 2]);
  });

  it.each([
    ['no script', ''],
    ['a script of another type', '<script type="text/plain">{}</script>'],
    ['a script that is not a direct child', `<div>${json('{}')}</div>`],
    ['two scripts, even when both are valid', json('{"a": 1}') + json('{"b": 2}')],
    ['text that is not JSON', json('{"a": 1,}')],
    ['an empty script', json('')],
  ])('gives no config for %s', (_, html) => {
    expect(readConfigScript(element(html))).toBeUndefined();
  });

  it('keeps JSON that is not an object for the parser to refuse', () => {
    expect(readConfigScript(element(json('null')))).toBeNull();
    expect(readConfigScript(element(json('"text"')))).toBe('text');
  });
});

describe('no config, as each component reports it', () => {
  const none = readConfigScript(element(json('{}') + json('{}')));

  it('<page-consent>: consent-config-invalid, failing closed', () => {
    const { value, diagnostics } = parseConsentConfig(none, { geoGroups: [], baseUrl: 'https://news.example/' });
    expect(value).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-config-invalid']);
  });

  it('<page-story-consent>: consent-story-invalid, no story', () => {
    const into = collector('consent-story-invalid');
    expect(parseStoryJson(none, 'https://news.example/', into)).toBeNull();
    expect(into.diagnostics.map((d) => d.code)).toEqual(['consent-story-invalid']);
  });

  it('<page-geo>: geo-config-invalid, no group', () => {
    const { value, diagnostics } = parseGeoConfig(none);
    expect(value).toEqual({});
    expect(diagnostics.map((d) => d.code)).toEqual(['geo-config-invalid']);
  });
});
