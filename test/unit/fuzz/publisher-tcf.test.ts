// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe } from 'vitest';
import { parseTcfConfig } from '../../../src/wire/tcf-settings.ts';
import { CONSENT_ONLY_PURPOSES } from '../../../src/wire/publisher-tcf.ts';
import { edgeNumber, ensure, expectCodedDiagnostics, expectPlainValue, fuzz, oddString, record } from './harness.ts';

const NAMES = ['purpose', 'type', 'vendors', 'consent', 'legitimateInterest', 'custom', 'id', 'name', 'legalBasis'];
const purpose = fc.oneof(fc.integer({ min: 0, max: 13 }), edgeNumber);
const restriction = record(
  {
    purpose,
    type: fc.oneof(fc.constantFrom('notAllowed', 'requireConsent', 'requireLi', 'NotAllowed', 0), oddString),
    vendors: fc.array(fc.oneof(fc.integer({ min: 0, max: 70_000 }), edgeNumber), { maxLength: 6 }),
  },
  NAMES,
);
const custom = record(
  {
    id: fc.oneof(fc.integer({ min: 0, max: 70 }), edgeNumber),
    name: oddString,
    description: oddString,
    legalBasis: fc.oneof(fc.constantFrom('consent', 'legitimateInterest'), oddString),
  },
  NAMES,
);
const publisherPurposes = record(
  {
    consent: fc.array(purpose, { maxLength: 6 }),
    legitimateInterest: fc.array(purpose, { maxLength: 6 }),
    custom: fc.array(custom, { maxLength: 5 }),
  },
  NAMES,
);
const config = record(
  {
    vendorListHref: fc.constant('/tcf/vendor-list.json'),
    vendors: fc.constant([1, 8]),
    publisherRestrictions: fc.array(restriction, { maxLength: 6 }),
    publisherPurposes,
  },
  ['vendorListHref', 'vendors', 'publisherRestrictions', 'publisherPurposes'],
);

describe('fuzz: tcf.publisherRestrictions and tcf.publisherPurposes', () => {
  fuzz('publisher restrictions and purposes', config, (input) => {
    const { value, diagnostics } = parseTcfConfig(input, 'https://news.example/');
    expectCodedDiagnostics(diagnostics);
    expectPlainValue(value);
    const seen = new Set<string>();
    for (const r of value?.publisherRestrictions ?? []) {
      ensure(Number.isInteger(r.purpose) && r.purpose >= 1 && r.purpose <= 11, `kept purpose ${r.purpose}`);
      ensure(
        r.type === 'notAllowed' || ![1, ...CONSENT_ONLY_PURPOSES].includes(r.purpose),
        `kept ${r.type} on ${r.purpose}`,
      );
      for (const id of r.vendors) {
        ensure(Number.isInteger(id) && id >= 1 && id <= 65_535, `kept vendor ${id}`);
        ensure(!seen.has(`${r.purpose}:${id}`), `vendor ${id} restricted twice for ${r.purpose}`);
        seen.add(`${r.purpose}:${id}`);
      }
    }
    const purposes = value?.publisherPurposes;
    for (const id of purposes?.legitimateInterest ?? [])
      ensure(!CONSENT_ONLY_PURPOSES.includes(id) && !purposes?.consent?.includes(id), `kept LI purpose ${id}`);
    const ids = (purposes?.custom ?? []).map((p) => p.id);
    ensure(new Set(ids).size === ids.length, 'a custom purpose id twice');
  });
});
