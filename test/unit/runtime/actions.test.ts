// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ActionsService, createActions } from '../../../src/runtime/actions.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import type { ActionArguments } from '../../../src/runtime/types.ts';

const controllers: AbortController[] = [];

/** A started service on the global happy-dom document; its listeners are removed after each test. */
function setUp(html: string, now = () => 1000) {
  document.body.innerHTML = html;
  const reports: { source: string; diagnostic: Diagnostic }[] = [];
  const controller = new AbortController();
  controllers.push(controller);
  const add = document.addEventListener.bind(document);
  const spy = vi
    .spyOn(document, 'addEventListener')
    .mockImplementation((type, listener, options) =>
      add(type, listener, { ...(typeof options === 'object' ? options : {}), signal: controller.signal }),
    );
  let markBuilt = () => {};
  const built = new Promise<void>((resolve) => (markBuilt = resolve));
  const actions = createActions({
    document,
    now,
    whenBuilt: () => built,
    report: (source, diagnostic) =>
      reports.push({ source: typeof source === 'string' ? source : source.id || source.localName, diagnostic }),
  });
  actions.start();
  spy.mockRestore();
  return { actions, reports, markBuilt, codes: () => reports.map((r) => r.diagnostic.code) };
}

/** Registers `name` on the element with that id and records each call's arguments. */
function record(actions: ActionsService, id: string, name: string) {
  const received: ActionArguments[] = [];
  actions.register(document.getElementById(id)!, name, (args) => received.push(args));
  return received;
}

const byId = (id: string) => document.getElementById(id)!;
const key = (id: string, name: string) => {
  const event = new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true });
  byId(id).dispatchEvent(event);
  return event;
};
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
  document.body.innerHTML = '';
});

describe('actions', () => {
  it('runs a tap action with typed arguments on click', () => {
    const { actions } = setUp(
      '<div id="panel"></div><button id="b" on="tap:panel.show(n=2, on=true, name=\'x y\')">go</button>',
    );
    const received = record(actions, 'panel', 'show');
    byId('b').click();
    expect(received).toEqual([{ n: 2, on: true, name: 'x y' }]);
  });

  it('runs click handlers as well as tap handlers on click', () => {
    const { actions } = setUp('<div id="panel"></div><button id="b" on="click:panel.one; tap:panel.two">go</button>');
    const one = record(actions, 'panel', 'one');
    const two = record(actions, 'panel', 'two');
    byId('b').click();
    expect([one.length, two.length]).toEqual([1, 1]);
  });

  it('runs the on attributes of the ancestors of the event target', () => {
    const { actions } = setUp(
      '<div id="panel"></div><section on="tap:panel.show"><p><span id="inner">x</span></p></section>',
    );
    const received = record(actions, 'panel', 'show');
    byId('inner').click();
    expect(received).toHaveLength(1);
  });

  it.each(['Enter', ' '])('fires tap for the key %j on a role=button element', (name) => {
    const { actions } = setUp(
      '<div id="panel"></div><div id="b" role="button" tabindex="0" on="tap:panel.show">go</div>',
    );
    const received = record(actions, 'panel', 'show');
    key('b', name);
    expect(received).toHaveLength(1);
  });

  it('prevents page scrolling for Space on a role=button element', () => {
    setUp('<div id="b" role="button" tabindex="0"></div>');
    expect(key('b', ' ').defaultPrevented).toBe(true);
  });

  it('does not fire tap for Enter on an element without role=button', () => {
    const { actions } = setUp('<div id="panel"></div><div id="b" tabindex="0" on="tap:panel.show">go</div>');
    const received = record(actions, 'panel', 'show');
    expect(key('b', 'Enter').defaultPrevented).toBe(false);
    key('b', ' ');
    expect(received).toHaveLength(0);
  });

  it('does not fire tap for other keys on a role=button element', () => {
    const { actions } = setUp('<div id="panel"></div><div id="b" role="button" on="tap:panel.show">go</div>');
    const received = record(actions, 'panel', 'show');
    key('b', 'a');
    expect(received).toHaveLength(0);
  });

  it('leaves keyboard activation of native buttons to their click', () => {
    const { actions } = setUp('<div id="panel"></div><button id="b" role="button" on="tap:panel.show">go</button>');
    const received = record(actions, 'panel', 'show');
    key('b', 'Enter');
    expect(received).toHaveLength(0);
  });

  it('resolves event references from the changed element', () => {
    const { actions } = setUp(
      '<div id="consent"></div><input id="c" type="checkbox" on="change:consent.setPurpose(analytics=event.checked, v=event.value)">',
    );
    const received = record(actions, 'consent', 'setPurpose');
    const input = byId('c') as HTMLInputElement;
    input.checked = true;
    input.value = 'yes';
    input.dispatchEvent(new Event('change', { bubbles: true }));
    expect(received).toEqual([{ analytics: true, v: 'yes' }]);
  });

  it('triggers custom event handlers and resolves references from the event detail', () => {
    const { actions } = setUp(
      '<div id="panel"></div><div id="source" on="consent-change:panel.update(state=event.state)"></div>',
    );
    const received = record(actions, 'panel', 'update');
    actions.trigger(
      byId('source'),
      'consent-change',
      new CustomEvent('consent-change', { detail: { state: 'accepted' } }),
    );
    expect(received).toEqual([{ state: 'accepted' }]);
  });

  it('passes the triggering event to the handler', () => {
    const { actions } = setUp('<div id="panel"></div><button id="b" on="tap:panel.show">go</button>');
    const events: (Event | null)[] = [];
    actions.register(byId('panel'), 'show', (_args, event) => events.push(event));
    byId('b').click();
    expect(events[0]?.type).toBe('click');
  });

  it('queues a call to a page element that has not registered its actions and runs it on registration', () => {
    const { actions, codes } = setUp(
      '<page-dialog id="d"></page-dialog><button id="b" on="tap:d.open(x=1)">go</button>',
    );
    byId('b').click();
    const received = record(actions, 'd', 'open');
    expect(received).toEqual([{ x: 1 }]);
    expect(codes()).toEqual([]);
  });

  it('reports a queued call whose action the element has not registered when it has built', async () => {
    const { actions, reports, markBuilt } = setUp(
      '<page-dialog id="d"></page-dialog><button id="b" on="tap:d.opne">go</button>',
    );
    byId('b').click();
    record(actions, 'd', 'open');
    await flush();
    expect(reports).toEqual([]);
    markBuilt();
    await flush();
    expect(reports).toEqual([
      { source: 'b', diagnostic: { code: 'unknown-action', expected: 'an action of #d (open)', got: '"opne"' } },
    ]);
  });

  it('reports a call to a built page element that registers no actions', async () => {
    const { codes, markBuilt } = setUp('<page-img id="i"></page-img><button id="b" on="tap:i.open">go</button>');
    markBuilt();
    byId('b').click();
    await flush();
    expect(codes()).toEqual(['unknown-action']);
  });

  it('reports a call to a page element that failed its build at once, without queueing it', () => {
    const { codes } = setUp(
      '<page-img id="i" class="page-error"></page-img><button id="b" on="tap:i.open">go</button>',
    );
    byId('b').click();
    expect(codes()).toEqual(['unknown-action']);
  });

  it('reports an unknown target id', () => {
    const { reports } = setUp('<button id="b" on="tap:nowhere.show">go</button>');
    byId('b').click();
    expect(reports).toEqual([
      {
        source: 'b',
        diagnostic: { code: 'unknown-action-target', expected: 'an element with id "nowhere"', got: 'nothing' },
      },
    ]);
  });

  it('reports an unknown action of a registered element', () => {
    const { actions, codes } = setUp('<page-dialog id="d"></page-dialog><button id="b" on="tap:d.shut">go</button>');
    record(actions, 'd', 'open');
    byId('b').click();
    expect(codes()).toEqual(['unknown-action']);
  });

  it('reports an action on an ordinary element without actions', () => {
    const { codes } = setUp('<div id="d"></div><button id="b" on="tap:d.open">go</button>');
    byId('b').click();
    expect(codes()).toEqual(['unknown-action']);
  });

  it('reports a malformed on attribute once and runs its valid calls', () => {
    const { actions, codes } = setUp('<div id="panel"></div><button id="b" on="tap:foo, panel.show">go</button>');
    const received = record(actions, 'panel', 'show');
    byId('b').click();
    byId('b').click();
    expect(received).toHaveLength(2);
    expect(codes()).toEqual(['invalid-action']);
  });

  it('parses the attribute again when it changes', () => {
    const { actions } = setUp('<div id="panel"></div><button id="b" on="tap:panel.one">go</button>');
    const one = record(actions, 'panel', 'one');
    const two = record(actions, 'panel', 'two');
    byId('b').click();
    byId('b').setAttribute('on', 'tap:panel.two');
    byId('b').click();
    expect([one.length, two.length]).toEqual([1, 1]);
  });

  it('contains a handler exception and keeps running the next calls', () => {
    const { actions, reports } = setUp(
      '<div id="panel"></div><button id="b" on="tap:panel.fail, panel.show">go</button>',
    );
    actions.register(byId('panel'), 'fail', () => {
      throw new Error('boom');
    });
    const received = record(actions, 'panel', 'show');
    expect(() => byId('b').click()).not.toThrow();
    expect(received).toHaveLength(1);
    expect(reports).toEqual([
      { source: 'panel', diagnostic: { code: 'action-failed', expected: 'fail to complete', got: '"Error: boom"' } },
    ]);
  });

  it('reports a rejected asynchronous handler', async () => {
    const { actions, codes } = setUp('<div id="panel"></div><button id="b" on="tap:panel.load">go</button>');
    actions.register(byId('panel'), 'load', (() => Promise.reject(new Error('no'))) as () => void);
    byId('b').click();
    await flush();
    expect(codes()).toEqual(['action-failed']);
  });

  it('records the last interaction time of the target and its ancestors only', () => {
    let time = 1000;
    const { actions } = setUp('<div id="outer"><span id="inner"></span></div><div id="other"></div>', () => time);
    expect(actions.lastInteraction(byId('outer'))).toBe(Number.NEGATIVE_INFINITY);
    byId('inner').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    time = 2000;
    byId('inner').dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(actions.lastInteraction(byId('outer'))).toBe(2000);
    expect(actions.lastInteraction(byId('inner'))).toBe(2000);
    expect(actions.lastInteraction(byId('other'))).toBe(Number.NEGATIVE_INFINITY);
  });

  it('installs its listeners once', () => {
    const { actions } = setUp('<div id="panel"></div><button id="b" on="tap:panel.show">go</button>');
    actions.start();
    const received = record(actions, 'panel', 'show');
    byId('b').click();
    expect(received).toHaveLength(1);
  });
});
