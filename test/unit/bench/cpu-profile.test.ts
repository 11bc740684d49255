import { describe, expect, it } from 'vitest';
import type { CallFrame, Profile } from '../../../bench/lib/cpu-profile.mjs';
import { describeFrame, fileOf, mainThreadTime, medianByKey, WITHOUT_URL } from '../../../bench/lib/cpu-profile.mjs';

const V0 = 'http://127.0.0.1:1/v0.js';
const CONSENT = 'http://127.0.0.1:1/v0/page-consent-0.1.js';

const frame = (functionName: string, url = '', lineNumber = 0, columnNumber = 0): CallFrame => ({
  url,
  functionName,
  lineNumber,
  columnNumber,
});

/**
 * (root) > (program) | (idle) | (garbage collector) | probe (no URL)
 *        > v0.js top level > define > consent's connectedCallback > JSON.parse (native, no URL)
 *        > consent's onModel (a callback)
 */
const PROFILE: Profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5, 6, 10] },
    { id: 2, callFrame: frame('(program)') },
    { id: 3, callFrame: frame('(idle)') },
    { id: 4, callFrame: frame('(garbage collector)') },
    { id: 5, callFrame: frame('poll') },
    { id: 6, callFrame: frame('', V0), children: [7] },
    { id: 7, callFrame: frame('define', V0, 0, 99), children: [8] },
    { id: 8, callFrame: frame('connectedCallback', CONSENT, 0, 500), children: [9] },
    { id: 9, callFrame: frame('parse') },
    { id: 10, callFrame: frame('onModel', CONSENT, 0, 900) },
  ],
  // Each sample counts the time since the previous one (µs).
  samples: [2, 3, 4, 5, 6, 7, 8, 9, 10, 10],
  timeDeltas: [1000, 5000, 500, 250, 2000, 1000, 3000, 1500, 400, 600],
};

describe('fileOf', () => {
  it('names a script by the last segment of its URL path', () => {
    expect(fileOf(CONSENT)).toBe('page-consent-0.1.js');
    expect(fileOf('http://127.0.0.1:2/third-party.js?x=1')).toBe('third-party.js');
  });

  it('keeps an engine-internal script name as it is', () => {
    expect(fileOf('extensions::SafeBuiltins')).toBe('extensions::SafeBuiltins');
  });
});

describe('describeFrame', () => {
  it('names a function with its one-based line and column, and a script evaluation as its top level', () => {
    expect(describeFrame(frame('define', V0, 0, 99))).toBe('v0.js define@1:100');
    expect(describeFrame(frame('', V0))).toBe('v0.js (top level)');
  });
});

describe('mainThreadTime', () => {
  const time = mainThreadTime(PROFILE);

  it('counts (program) apart and leaves (idle) out', () => {
    expect(time.programMs).toBe(1);
    expect(time.scriptMs).toBeCloseTo(0.5 + 0.25 + 2 + 1 + 3 + 1.5 + 0.4 + 0.6, 9);
  });

  it('gives a sample to the innermost file with a URL, native calls included', () => {
    expect(time.byFile).toEqual({
      '(garbage collector)': 0.5,
      [WITHOUT_URL]: 0.25,
      'v0.js': 3,
      'page-consent-0.1.js': expect.closeTo(5.5, 9),
    });
  });

  it('gives a sample to the outermost frame with a URL: the task entry into script', () => {
    expect(time.byFunction).toEqual({
      '(garbage collector)': 0.5,
      [WITHOUT_URL]: 0.25,
      'v0.js (top level)': expect.closeTo(7.5, 9),
      'page-consent-0.1.js onModel@1:901': 1,
    });
  });

  it('names entry functions with the given describer', () => {
    const named = mainThreadTime(PROFILE, { describe: (callFrame) => `<${callFrame.functionName || 'top'}>` });
    expect(Object.keys(named.byFunction)).toContain('<onModel>');
    expect(Object.keys(named.byFunction)).toContain('<top>');
  });
});

describe('medianByKey', () => {
  it('takes the median per key, a missing key counting 0, largest first', () => {
    expect(medianByKey([{ a: 1, b: 5 }, { a: 3 }, { a: 2, b: 4, c: 1 }])).toEqual([
      ['b', 4],
      ['a', 2],
      ['c', 0],
    ]);
  });

  it('is empty for no tables', () => {
    expect(medianByKey([])).toEqual([]);
  });
});
