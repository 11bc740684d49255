// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { optOutEventOf, withOptOut } from '../../../src/consent/opt-out.ts';
import { type ConsentEvent, initialModel, reduceConsent, type StartEvent } from '../../../src/consent/state.ts';
import type { PageRuntime } from '../../../src/runtime/index.ts';
import type { StoredConsent } from '../../../src/wire/consent.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';

const reduce = withOptOut(reduceConsent);
const run = (...events: ConsentEvent[]) => events.reduce(reduce, initialModel);
const start = (consentRequired: boolean, stored: StoredConsent | null = null): StartEvent => ({
  type: 'start',
  stored,
  consentRequired,
  requiredPurposes: ['ads'],
});
const optOut = (...categories: ('sale' | 'sharing' | 'targetedAdvertising' | 'sensitiveData')[]): ConsentEvent => ({
  type: 'opt-out',
  categories,
});

describe('withOptOut', () => {
  it('records a rejection with the categories where consent is not required, without a prompt', () => {
    const model = run(start(false), optOut('sale', 'sharing', 'targetedAdvertising'));
    expect(model.state).toEqual({ kind: 'rejected' });
    expect(model.isPromptShown).toBe(false);
    expect(model.saved).toMatchObject({
      state: 'rejected',
      consentMetadata: { usOptOuts: 'sale,sharing,targetedAdvertising' },
    });
  });

  it('withdraws an earlier acceptance as a reject does, purposes included', () => {
    const accepted: StoredConsent = { version: 2, time: 0, state: 'accepted', purposeConsents: { ads: true } };
    const model = run(start(true, accepted), optOut('sensitiveData'));
    expect(model.state).toEqual({ kind: 'rejected' });
    expect(model.purposeConsents).toEqual({ ads: false });
    expect(model.consentMetadata).toEqual({ usOptOuts: 'sensitiveData' });
    expect(model.consentString).toBeUndefined();
  });

  it('adds the categories to those asked for before, and reads an earlier reject as every category', () => {
    expect(run(start(false), optOut('sale'), optOut('sensitiveData')).consentMetadata?.usOptOuts).toBe(
      'sale,sensitiveData',
    );
    const rejected: StoredConsent = { version: 2, time: 0, state: 'rejected' };
    expect(run(start(true, rejected), optOut('sale')).consentMetadata?.usOptOuts).toBe(
      'sale,sharing,targetedAdvertising,sensitiveData',
    );
  });

  it('closes an open prompt, and waits for the state to be known', () => {
    expect(run(start(true), optOut('sale')).isPromptShown).toBe(false);
    expect(run(optOut('sale'))).toBe(initialModel);
    expect(run({ type: 'invalid' }, optOut('sale')).state).toEqual({ kind: 'invalid' });
  });

  it('leaves every other event to the reducer', () => {
    expect(run(start(true), { type: 'decide', decision: 'accepted' }).state).toEqual({ kind: 'accepted' });
  });
});

describe('optOutEventOf', () => {
  const page = {} as PageRuntime;
  const collect = () => {
    const reports: [string, string | undefined][] = [];
    return { reports, report: (d: Diagnostic, level?: string) => reports.push([d.code, level]) };
  };

  it.each([['us'], ['unknown'], [undefined]])('gives the opt-out to a reader of country %s', async (country) => {
    const { reports, report } = collect();
    const event = await optOutEventOf(page, { category: 'sale' }, report, async () => country);
    expect(event).toEqual({ type: 'opt-out', categories: ['sale'] });
    expect(reports).toEqual([]);
  });

  it('does nothing for a reader outside the US but warn once', async () => {
    const { reports, report } = collect();
    expect(await optOutEventOf(page, {}, report, async () => 'de')).toBeNull();
    expect(reports).toEqual([['consent-opt-out-not-us', 'warn']]);
  });

  it('reports an unknown category once and records nothing', async () => {
    const { reports, report } = collect();
    expect(await optOutEventOf(page, { category: 'everything' }, report, async () => 'us')).toBeNull();
    expect(reports).toEqual([['consent-opt-out-category', undefined]]);
  });

  it('asks the geo service of <page-geo> where the reader is', async () => {
    document.body.innerHTML = '<page-geo></page-geo>';
    const geo = { whenService: async () => ({ country: 'fr', subdivision: 'unknown', matchedGroups: [] }) };
    const { reports, report } = collect();
    expect(await optOutEventOf(geo as unknown as PageRuntime, {}, report)).toBeNull();
    expect(reports).toEqual([['consent-opt-out-not-us', 'warn']]);
    document.body.innerHTML = '';
    expect(await optOutEventOf(geo as unknown as PageRuntime, {}, report)).not.toBeNull();
  });
});
