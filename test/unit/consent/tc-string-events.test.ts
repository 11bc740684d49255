import { describe, expect, it, vi } from 'vitest';
import { createConsentController } from '../../../src/consent/controller.ts';
import * as remote from '../../../src/consent/remote.ts';
import { decisionKeyOf, withTcStrings } from '../../../src/consent/tc-string-state.ts';
import { parseStoredConsent } from '../../../src/wire/consent.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';

const UPDATE = 'https://cmp.example/update';
const config = parseConsentConfig(
  {
    consentInstanceId: 'site',
    consentRequired: true,
    onUpdateHref: UPDATE,
    exposesTcfApi: true,
    cmpId: 300,
    cmpVersion: 1,
    tcf: {},
  },
  { geoGroups: [], baseUrl: 'https://news.example/a' },
).value;

function setUp(stored: Record<string, unknown> = {}, isTcfPage = true) {
  const values = new Map(Object.entries(stored));
  const storage = {
    get: (key: string) => values.get(key),
    set: (key: string, value: unknown) => void values.set(key, value),
    remove: (key: string) => void values.delete(key),
  };
  const fetch = vi.fn(async () => new Response('{}'));
  const clock = { setTimeout: () => 0, clearTimeout: () => {} };
  let time = 1000;
  const controller = createConsentController({
    storage,
    fetch,
    clock,
    report: vi.fn(),
    onChange: vi.fn(),
    expandUrl: async (url) => url,
    remote: async () => remote,
    parseStoredConsent,
    newId: () => 'user-1',
    now: () => time,
  });
  // As the signals (in the state part) do for a `tcf` config.
  if (isTcfPage) controller.extend(withTcStrings);
  const posted = () =>
    fetch.mock.calls.map((call) => JSON.parse(String((call as unknown as [string, RequestInit])[1].body)));
  return { controller, values, posted, later: () => (time += 5000) };
}
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('TC strings added to a decision', () => {
  it('stores the string with the decision and posts the decision once, with the string', async () => {
    const { controller, values, posted } = setUp();
    controller.dispatch({ type: 'expect-tc-string' });
    await controller.start(config, null);
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    expect(controller.model().isStringPending).toBe(true);
    expect(values.get('consent:site')).toMatchObject({ state: 'accepted' });
    await flush();
    expect(posted()).toEqual([]);
    controller.dispatch({
      type: 'add-string',
      decisionKey: decisionKeyOf(controller.model()),
      consentString: 'TC',
      consentMetadata: { consentStringType: 2 },
    });
    await flush();
    expect(values.get('consent:site')).toMatchObject({
      state: 'accepted',
      consentString: 'TC',
      consentMetadata: { consentStringType: 2 },
    });
    expect(posted()).toMatchObject([{ consentStateValue: 'accepted', consentString: 'TC' }]);
  });

  it('posts the decision without a string once building it failed', async () => {
    const { controller, posted } = setUp();
    controller.dispatch({ type: 'expect-tc-string' });
    await controller.start(config, null);
    controller.dispatch({ type: 'decide', decision: 'rejected' });
    controller.dispatch({ type: 'add-string', decisionKey: decisionKeyOf(controller.model()) });
    await flush();
    expect(controller.model().isStringPending).toBe(false);
    expect(posted()).toMatchObject([{ consentStateValue: 'rejected' }]);
    expect(posted()[0].consentString).toBeUndefined();
  });

  it("ignores a string built for another decision, and never replaces a decision's own string", async () => {
    const { controller } = setUp();
    controller.dispatch({ type: 'expect-tc-string' });
    await controller.start(config, null);
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    const key = decisionKeyOf(controller.model());
    controller.dispatch({ type: 'prompt' });
    controller.dispatch({ type: 'decide', decision: 'rejected', consentString: 'CMP' });
    controller.dispatch({ type: 'add-string', decisionKey: key, consentString: 'OURS' });
    controller.dispatch({ type: 'add-string', decisionKey: decisionKeyOf(controller.model()), consentString: 'OURS' });
    expect(controller.model().consentString).toBe('CMP');
  });

  it("keeps a stored decision's time when its string is added later", async () => {
    const stored = { version: 2, state: 'accepted', time: 500, purposeConsents: {} };
    const { controller, values, later } = setUp({ 'consent:site': stored });
    controller.dispatch({ type: 'expect-tc-string' });
    await controller.start(config, null);
    later();
    controller.dispatch({ type: 'add-string', decisionKey: decisionKeyOf(controller.model()), consentString: 'TC' });
    expect(values.get('consent:site')).toMatchObject({ consentString: 'TC', time: 500 });
  });
});

describe('without the TC-string extension (a page without `tcf`)', () => {
  it('ignores the string events, and nothing waits for a string', async () => {
    const { controller, posted } = setUp({}, false);
    controller.dispatch({ type: 'expect-tc-string' });
    await controller.start(config, null);
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    const decided = controller.model();
    controller.dispatch({ type: 'add-string', decisionKey: decisionKeyOf(decided), consentString: 'TC' });
    expect(controller.model()).toBe(decided);
    expect(decided.isStringPending).toBeUndefined();
    await flush();
    expect(posted()).toMatchObject([{ consentStateValue: 'accepted' }]);
  });
});
