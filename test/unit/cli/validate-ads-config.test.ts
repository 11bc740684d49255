import { describe, expect, it } from 'vitest';
import { validateAdsConfig } from '../../../cli/validate-ads-config.ts';

const VALID = {
  placements: [{ anchor: { selector: 'main p', index: 2 }, pos: 4, type: 1, style: { top_m: 10 } }],
  attributes: { 'data-ad-client': 'ca-pub-1' },
  adConstraints: { initialMinSpacing: '1vp', subsequentMinSpacing: [{ adCount: 3, spacing: '2vp' }], maxAdCount: 5 },
};

describe('validateAdsConfig', () => {
  it('finds nothing in a valid config', () => {
    expect(validateAdsConfig(JSON.stringify(VALID))).toEqual([]);
  });

  it('reports text that is not JSON', () => {
    expect(validateAdsConfig('{"placements": [').map(({ code }) => code)).toEqual(['auto-ads-config-invalid']);
  });

  it('reports every problem of the shared parser as an error naming its field', () => {
    const config = { ...VALID, placements: [{ ...VALID.placements[0], pos: 7 }], attributes: { onclick: 'x' } };
    const findings = validateAdsConfig(JSON.stringify(config));
    expect(findings.map(({ code, severity }) => `${code}@${severity}`)).toEqual([
      'auto-ads-placement-invalid@error',
      'auto-ads-attribute-dropped@error',
    ]);
    expect(findings[0]?.message).toMatch(/^expected placements\[0\]\.pos: 1 \(BEFORE\).*, got 7$/);
  });

  it('reports each bad field of a vignette or side rail placement as its own error', () => {
    const config = {
      ...VALID,
      placements: [
        { type: 'vignette', timeoutMs: 50, articleEnd: 1 },
        { type: 'sideRail', sides: 'middle' },
      ],
    };
    const findings = validateAdsConfig(JSON.stringify(config));
    expect(findings.map(({ code, severity }) => `${code}@${severity}`)).toEqual([
      'auto-ads-placement-invalid@error',
      'auto-ads-placement-invalid@error',
      'auto-ads-placement-invalid@error',
    ]);
    expect(findings.map(({ message }) => message.split(':')[0])).toEqual([
      'expected placements[0].articleEnd',
      'expected placements[0].timeoutMs',
      'expected placements[1].sides',
    ]);
  });

  it('reports each bad field of an experiment as its own error, and a valid experiment as nothing', () => {
    const arms = [
      { id: 'a', weight: 50, settings: { maxAdCount: 3 } },
      { id: 'b', weight: 50, settings: { anchor: true } },
    ];
    expect(validateAdsConfig(JSON.stringify({ ...VALID, experiment: { id: 'x', arms } }))).toEqual([]);
    const config = {
      ...VALID,
      onExperimentHref: 'data:,x',
      experiment: { id: 'x', arms: [arms[0], { ...arms[1], weight: 1.5, settings: { maxAds: 3 } }] },
    };
    const findings = validateAdsConfig(JSON.stringify(config));
    expect(findings.map(({ code, severity }) => `${code}@${severity}`)).toEqual([
      'auto-ads-experiment-invalid@error',
      'auto-ads-experiment-invalid@error',
      'auto-ads-experiment-invalid@error',
    ]);
    expect(findings.map(({ message }) => message.split(':')[0])).toEqual([
      'expected experiment.arms[1].weight',
      'expected experiment.arms[1].settings.maxAds',
      'expected onExperimentHref',
    ]);
  });
});
