import { describe, expect, it } from 'vitest';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';
import { CMP_PRESETS, type Preset } from '../../../src/wire/consent-presets.ts';

const baseUrl = 'https://news.example/article';
const parse = (
  json: object,
  type: string | null,
  presets: Readonly<Record<string, Preset>> = CMP_PRESETS,
  geoGroups: string[] = [],
) => parseConsentConfig(json, { geoGroups, type, baseUrl, presets });

describe('CMP presets (type attribute)', () => {
  it('page-hosted points at the consent server of checkConsentHref', () => {
    const { value, diagnostics } = parse(
      { consentInstanceId: 'news', checkConsentHref: 'https://consent.example/consent/check' },
      'page-hosted',
    );
    expect(diagnostics).toEqual([]);
    expect(value).toMatchObject({
      checkConsentHref: 'https://consent.example/consent/check',
      onUpdateHref: 'https://consent.example/consent/update',
      promptUiSrc: 'https://consent.example/cmp/prompt.html?instance=news',
      clientConfig: { consentInstanceId: 'news' },
      consentRequired: 'remote',
    });
  });

  it('page-hosted tells the prompt which IAB APIs the page exposes', () => {
    expect(parse({ consentInstanceId: 'news', exposesGppApi: true }, 'page-hosted').value?.clientConfig).toEqual({
      consentInstanceId: 'news',
      exposesGppApi: true,
    });
    expect(
      parse({ consentInstanceId: 'news', exposesTcfApi: true, exposesGppApi: true }, 'page-hosted').value?.clientConfig,
    ).toEqual({
      consentInstanceId: 'news',
      exposesTcfApi: true,
      exposesGppApi: true,
    });
  });

  it('page-hosted passes the required purposes to the prompt; an inline clientConfig merges over it', () => {
    const { value } = parse(
      { consentInstanceId: 'news', purposeConsentRequired: ['ads'], clientConfig: { theme: 'dark' } },
      'page-hosted',
    );
    expect(value?.clientConfig).toEqual({ consentInstanceId: 'news', purposeConsentRequired: ['ads'], theme: 'dark' });
  });

  it('page-hosted without checkConsentHref uses the page origin for every URL', () => {
    const { value } = parse({ consentInstanceId: 'a b' }, 'page-hosted');
    expect(value).toMatchObject({
      checkConsentHref: 'https://news.example/consent/check',
      onUpdateHref: 'https://news.example/consent/update',
      promptUiSrc: 'https://news.example/cmp/prompt.html?instance=a%20b',
    });
  });

  it('merges the preset under the inline config: inline wins, nested objects merged one level', () => {
    const presets = {
      test: () => ({
        promptUiSrc: 'https://cmp.example/ui',
        captions: { consentPromptCaption: 'Preset', buttonActionCaption: 'Go' },
        policy: { default: { timeout: 3 } },
      }),
    };
    const { value, diagnostics } = parse(
      {
        consentInstanceId: 'news',
        consentRequired: true,
        promptUiSrc: 'https://mine.example/ui',
        captions: { consentPromptCaption: 'Mine' },
      },
      'test',
      presets,
    );
    expect(diagnostics).toEqual([]);
    expect(value).toMatchObject({
      promptUiSrc: 'https://mine.example/ui',
      consentPromptCaption: 'Mine',
      buttonActionCaption: 'Go',
      timeoutSeconds: 3,
    });
  });

  it('geoOverride still applies over the preset and the inline config', () => {
    const { value } = parse(
      { consentInstanceId: 'news', geoOverride: { eu: { promptUiSrc: 'https://eu.example/ui' } } },
      'page-hosted',
      CMP_PRESETS,
      ['eu'],
    );
    expect(value).toMatchObject({ promptUiSrc: 'https://eu.example/ui', matchedGeoGroup: 'eu' });
  });

  it('an unknown type (or an inherited name) is consent-type-unknown and the inline config is used alone', () => {
    for (const type of ['onetrust', 'constructor', 'Page-Hosted']) {
      const { value, diagnostics } = parse({ consentInstanceId: 'news', consentRequired: true }, type);
      expect(diagnostics.map((d) => d.code)).toEqual(['consent-type-unknown']);
      expect(diagnostics[0]!.expected).toContain('page-hosted');
      expect(value).not.toHaveProperty('promptUiSrc');
    }
  });

  it('reads promptUiSrc, sandbox and clientConfig, dropping wrong types', () => {
    const { value, diagnostics } = parse(
      {
        consentInstanceId: 'n',
        consentRequired: true,
        promptUiSrc: 7,
        sandbox: 'allow-popups-to-escape-sandbox',
        clientConfig: { a: 1 },
      },
      null,
    );
    expect(value).toMatchObject({ sandbox: 'allow-popups-to-escape-sandbox', clientConfig: { a: 1 } });
    expect(value).not.toHaveProperty('promptUiSrc');
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([['consent-field-invalid', 'promptUiSrc']]);
  });
});
