import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/hosted-cmp/first-layer-summary.ts';
import type { TcfScope } from '../../../src/hosted-cmp/tcf-scope.ts';
import { parseGvl } from '../../../src/wire/gvl.ts';

const gvl = parseGvl(JSON.parse(readFileSync(resolve('fixtures/tcf/vendor-list.json'), 'utf8'))).value!;
const scope = (fields: Partial<TcfScope>): TcfScope => ({
  vendors: [],
  purposes: [],
  legIntPurposes: [],
  specialPurposes: [],
  features: [],
  specialFeatures: [],
  ...fields,
});

describe('first-layer-summary', () => {
  it('describes purposes by the largest stack of purposes they fill, then one line per purpose left', () => {
    const summary = summarize(gvl, scope({ purposes: [1, 2, 3, 4], legIntPurposes: [7] }));
    expect(summary.purposes.map((item) => item.name)).toEqual([
      'Personalised advertising',
      'Store and/or access information on a device',
      'Measure advertising performance',
    ]);
  });

  it('lists the special features apart, one line each, never inside a stack', () => {
    // Stack 1 holds exactly special features 1 and 2: it is not used, so they keep their own heading.
    const summary = summarize(gvl, scope({ purposes: [1], specialFeatures: [1, 2] }));
    expect(summary.purposes.map((item) => item.name)).toEqual(['Store and/or access information on a device']);
    expect(summary.specialFeatures.map((item) => item.name)).toEqual([
      'Use precise geolocation data',
      'Actively scan device characteristics for identification',
    ]);
  });
});
