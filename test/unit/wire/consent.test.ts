import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/consent/policy.ts';
import { parseCheckAnswer, parseStoredConsent, parseUpdateAnswer } from '../../../src/wire/consent.ts';
import { parseCheckRequest, parseUpdateRequest } from '../../../src/wire/consent-bodies.ts';

const parse = (body: unknown, prefix?: string) =>
  parseCheckAnswer(typeof body === 'string' ? body : JSON.stringify(body), prefix);

describe('parseCheckAnswer', () => {
  it('reads every field', () => {
    const fields = {
      consentRequired: true,
      consentStateValue: 'accepted',
      consentString: 'CP',
      expireCache: true,
      sharedData: { tier: 'gold', n: 1, b: false },
      purposeConsents: { ads: true },
      consentMetadata: {
        gdprApplies: true,
        consentStringType: 2,
        additionalConsent: '1~1.2',
        purposeOne: true,
        gppSectionId: '2',
      },
      tcfPolicyVersion: 4,
    };
    expect(parse(fields)).toEqual({ value: fields, diagnostics: [] });
  });

  it('drops a purpose outside the purpose id rule with consent-answer-field-invalid', () => {
    const { value, diagnostics } = parse({
      consentRequired: true,
      purposeConsents: { ads: true, 'social media': true, 'analytics:v2': false },
    });
    expect(value?.purposeConsents).toEqual({ ads: true, 'analytics:v2': false });
    expect(diagnostics).toEqual([
      {
        code: 'consent-answer-field-invalid',
        expected: 'purposeConsents: a purpose id of letters, digits or . _ : -',
        got: '"social media"',
        field: 'purposeConsents',
      },
    ]);
  });

  it('treats a missing or null consentRequired as not required (docs/consent.md, "Remote check")', () => {
    expect(parse({ consentStateValue: 'accepted' }).value).toMatchObject({
      consentRequired: false,
      consentStateValue: 'accepted',
    });
    expect(parse({ consentRequired: null }).value?.consentRequired).toBe(false);
  });

  it('reads the legacy promptIfUnknown and purposeConsent spellings', () => {
    expect(parse({ promptIfUnknown: true }).value?.consentRequired).toBe(true);
    expect(parse({ consentRequired: true, purposeConsent: { ads: false } }).value?.purposeConsents).toEqual({
      ads: false,
    });
  });

  it('defaults the optional fields and reads an empty consentString as none', () => {
    expect(parse({ consentRequired: true, consentString: '' }).value).toEqual({
      consentRequired: true,
      consentStateValue: null,
    });
  });

  it('strips the xssiPrefix and reads a body without it as it is', () => {
    expect(parse(`)]}'\n{"consentRequired":true}`, ")]}'\n").value?.consentRequired).toBe(true);
    expect(parse('{"consentRequired":true}', ")]}'").value?.consentRequired).toBe(true);
  });

  it.each([
    ['invalid JSON', 'not json', 'invalid JSON'],
    ['a JSON array', '[1]', '[1]'],
    ['a string consentRequired', { consentRequired: 'false' }, 'false'],
    ['a numeric consentRequired', { consentRequired: 0 }, '0'],
  ])('fails closed on %s', (_, body, cause) => {
    const { value, diagnostics } = parse(body);
    expect(value).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-check-failed']);
    expect(diagnostics[0]?.got).toContain(cause);
  });

  it.each([
    ['consentStateValue', 'maybe', null],
    ['consentStateValue', 1, null],
    ['consentString', 5, undefined],
    ['expireCache', 'true', undefined],
    ['sharedData', 'gold', undefined],
    ['purposeConsents', [true], undefined],
    ['consentMetadata', 'x', undefined],
    ['tcfPolicyVersion', '2', undefined],
  ])('drops a mistyped %s (%j) with a diagnostic', (key, bad, expected) => {
    const { value, diagnostics } = parse({ consentRequired: true, [key]: bad });
    expect(value?.consentRequired).toBe(true);
    expect((value as Record<string, unknown>)[key]).toBe(expected);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'consent-answer-field-invalid', field: key })]);
  });

  it('drops a purpose whose value is not a boolean, keeping the others', () => {
    const { value, diagnostics } = parse({
      consentRequired: true,
      purposeConsents: { ads: 'false', measure: true, video: 1 },
    });
    expect(value?.purposeConsents).toEqual({ measure: true });
    expect(diagnostics.map((d) => d.field)).toEqual(['purposeConsents.ads', 'purposeConsents.video']);
  });

  it('keeps constructor and __proto__ as ordinary own purpose names', () => {
    const { value } = parse('{"consentRequired":true,"purposeConsents":{"__proto__":true,"constructor":false}}');
    expect(Object.getPrototypeOf(value?.purposeConsents)).toBe(Object.prototype);
    expect(Object.keys(value?.purposeConsents ?? {})).toEqual(['__proto__', 'constructor']);
    expect(value?.purposeConsents?.constructor).toBe(false);
  });
});

describe('parseStoredConsent', () => {
  it('reads a stored record with its time', () => {
    const value = {
      version: 2,
      state: 'accepted',
      time: 5,
      consentString: 'x',
      purposeConsents: { a: true },
      consentMetadata: { gdprApplies: true },
      tcfPolicyVersion: 2,
    };
    expect(parseStoredConsent(value, 9)).toEqual({ value, diagnostics: [] });
  });

  it('reads a version 1 record as a version 2 record made now', () => {
    const { value, diagnostics } = parseStoredConsent(
      { version: 1, state: 'rejected', purposeConsents: { a: false } },
      1234,
    );
    expect(value).toEqual({ version: 2, state: 'rejected', purposeConsents: { a: false }, time: 1234 });
    expect(diagnostics).toEqual([]);
  });

  it('reads nothing stored without a diagnostic', () => {
    expect(parseStoredConsent(undefined, 0)).toEqual({ value: null, diagnostics: [] });
  });

  it.each([
    'accepted',
    true,
    { version: 2, state: 'accepted' },
    { version: 3, state: 'accepted', time: 1 },
    { version: 1, state: 'dismissed' },
    { version: 1 },
  ])('reads %j as no decision, with a diagnostic', (value) => {
    const { value: parsed, diagnostics } = parseStoredConsent(value, 0);
    expect(parsed).toBeNull();
    expect(diagnostics[0]?.code).toBe('consent-stored-invalid');
  });

  it('drops mistyped fields and mistyped purposes', () => {
    const { value, diagnostics } = parseStoredConsent(
      {
        version: 2,
        state: 'rejected',
        time: 7,
        consentString: 3,
        purposeConsents: { ads: 'false', x: true },
        tcfPolicyVersion: '2',
      },
      0,
    );
    expect(value).toEqual({ version: 2, state: 'rejected', time: 7, purposeConsents: { x: true } });
    expect(diagnostics).toHaveLength(3);
  });
});

describe('request bodies', () => {
  it('reads a check body', () => {
    const body = {
      consentInstanceId: 'site',
      consentStateValue: 'unknown',
      matchedGeoGroup: 'eea',
      isDirty: false,
      purposeConsents: { ads: true },
    };
    expect(parseCheckRequest(body)).toEqual({ value: body, diagnostics: [] });
  });

  it('defaults matchedGeoGroup to null and isDirty to false', () => {
    expect(parseCheckRequest({ consentInstanceId: 'site', consentStateValue: 'accepted' }).value).toEqual({
      consentInstanceId: 'site',
      consentStateValue: 'accepted',
      matchedGeoGroup: null,
      isDirty: false,
    });
  });

  it.each([
    ['consentInstanceId', { consentStateValue: 'accepted' }],
    ['consentInstanceId', { consentInstanceId: 'a\u0000b', consentStateValue: 'accepted' }],
    ['consentInstanceId', { consentInstanceId: 'a'.repeat(101), consentStateValue: 'accepted' }],
    ['consentStateValue', { consentInstanceId: 'site', consentStateValue: 'maybe' }],
    [
      'purposeConsents.ads',
      { consentInstanceId: 'site', consentStateValue: 'accepted', purposeConsents: { ads: 'true' } },
    ],
    ['consentString', { consentInstanceId: 'site', consentStateValue: 'accepted', consentString: 'a\u0000b' }],
    ['consentString', { consentInstanceId: 'site', consentStateValue: 'accepted', consentString: 'a\ud800b' }],
  ])('refuses a body with a bad %s', (field, body) => {
    const { value, diagnostics } = parseCheckRequest(body);
    expect(value).toBeNull();
    expect(diagnostics[0]).toMatchObject({ code: 'invalid-field', field });
  });

  it('requires pageUserId in an update body', () => {
    const body = { consentInstanceId: 'site', consentStateValue: 'accepted' };
    expect(parseUpdateRequest(body).diagnostics[0]?.field).toBe('pageUserId');
    expect(parseUpdateRequest({ ...body, pageUserId: 'u1', tcfPolicyVersion: 5 }).value).toEqual({
      ...body,
      pageUserId: 'u1',
      tcfPolicyVersion: 5,
    });
  });
});

describe('properties', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const answerObject = fc.dictionary(
    fc.constantFrom(
      'consentRequired',
      'consentStateValue',
      'purposeConsents',
      'purposeConsent',
      'consentString',
      'sharedData',
      'expireCache',
      'constructor',
      '__proto__',
    ),
    json,
  );

  it('never throws, and every rejection is a coded diagnostic', () => {
    fc.assert(
      fc.property(fc.oneof(json, answerObject), (value) => {
        for (const parsed of [
          parse(value),
          parseStoredConsent(value, 0),
          parseCheckRequest(value),
          parseUpdateRequest(value),
        ]) {
          for (const d of parsed.diagnostics) expect(d.code).toMatch(/^[a-z]+(-[a-z]+)+$/);
        }
      }),
    );
  });

  it('never lets a purpose allow unless its value is literally true', () => {
    const purposeValue = fc.oneof(json, fc.constant(true));
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('ads', 'constructor', 'toString', '__proto__', 'hasOwnProperty'), purposeValue),
        fc.constantFrom('ads', 'constructor', 'toString', '__proto__', 'hasOwnProperty'),
        (purposes, name) => {
          const { value } = parse(
            JSON.stringify({ consentRequired: true, consentStateValue: 'accepted', purposeConsents: purposes }),
          );
          const input = {
            state: { kind: 'accepted' } as const,
            purposeConsents: value?.purposeConsents ?? {},
            fallbackAction: 'dismiss' as const,
            hasPrompt: true,
          };
          const allowed = decide({ policy: null, purposes: [name] }, input) === 'allow';
          expect(allowed).toBe(Object.hasOwn(purposes, name) && purposes[name] === true);
        },
      ),
    );
  });
});

describe('parseUpdateAnswer', () => {
  it('reads the receipt id of an update answer', () => {
    expect(parseUpdateAnswer('{"recorded":true,"policyVersion":1,"receiptId":"r_abc-1"}')).toBe('r_abc-1');
  });

  it.each(['', 'null', '{"recorded":true}', '{"receiptId":5}', '{"receiptId":"a b"}', '[1]'])(
    'reads %j as no receipt',
    (text) => {
      expect(parseUpdateAnswer(text)).toBeNull();
    },
  );
});
