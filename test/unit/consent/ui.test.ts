// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { initialModel, reduceConsent, type ConsentEvent, type ConsentModel } from '../../../src/consent/state.ts';
import { createUi, selectUi } from '../../../src/consent/ui.ts';

const run = (...events: ConsentEvent[]) => events.reduce(reduceConsent, initialModel);
const start = (consentRequired: boolean | 'remote'): ConsentEvent => ({
  type: 'start',
  stored: null,
  consentRequired,
  requiredPurposes: [],
});
const decide = (decision: 'accepted' | 'rejected' | 'dismissed'): ConsentEvent => ({ type: 'decide', decision });

describe('selectUi', () => {
  it.each([
    ['pending', run(), null],
    ['waiting for the server', run(start('remote')), null],
    ['undecided and required', run(start(true)), 'prompt'],
    ['not required', run(start(false)), null],
    ['accepted', run(start(true), decide('accepted')), 'post'],
    ['rejected', run(start(true), decide('rejected')), 'post'],
    ['dismissed', run(start(true), decide('dismissed')), 'post'],
    ['invalid', run({ type: 'invalid' }), null],
    ['re-prompted', run(start(true), decide('accepted'), { type: 'prompt' }), 'prompt'],
    ['re-prompted while not required', run(start(false), { type: 'prompt' }), 'prompt'],
  ] as [string, ConsentModel, string | null][])('shows %s: %s', (_, model, expected) => {
    expect(selectUi(model, true, true)).toBe(expected);
  });

  it('shows the post-prompt when a prompt is due but there is no prompt UI', () => {
    expect(selectUi(run(start(true)), false, true)).toBe('post');
  });

  it('shows nothing without the UI elements', () => {
    expect(selectUi(run(start(true), decide('accepted')), true, false)).toBeNull();
    expect(selectUi(run(start(true)), false, false)).toBeNull();
  });
});

describe('createUi', () => {
  let host: HTMLElement;
  let prompt: HTMLElement;
  let post: HTMLElement;
  let outside: HTMLButtonElement;
  beforeEach(() => {
    document.head.innerHTML = '';
    document.body.innerHTML =
      '<button id="outside">x</button><page-consent id="c"><div id="prompt"><button>ok</button></div><div id="post"></div></page-consent><main id="main"></main>';
    host = document.getElementById('c')!;
    prompt = document.getElementById('prompt')!;
    post = document.getElementById('post')!;
    outside = document.getElementById('outside') as HTMLButtonElement;
  });

  it('installs one stylesheet that hides the UIs until shown', () => {
    createUi(host, { prompt, post, overlay: false, caption: 'Privacy' });
    expect(document.head.querySelector('style')?.textContent).toContain('page-consent>*');
  });

  it('says whether a prompt exists', () => {
    expect(createUi(host, { prompt, post, overlay: false, caption: 'x' }).hasPrompt).toBe(true);
    expect(createUi(host, { prompt: null, post, overlay: false, caption: 'x' }).hasPrompt).toBe(false);
  });

  it('shows the prompt as a dialog, focused, on the fixed host', () => {
    outside.focus();
    const render = createUi(host, { prompt, post, overlay: false, caption: 'Privacy' });
    render(run(start(true)));
    expect(prompt.classList.contains('page-consent-shown')).toBe(true);
    expect(host.classList.contains('page-consent-shown')).toBe(true);
    expect([prompt.getAttribute('role'), prompt.getAttribute('aria-label'), prompt.getAttribute('tabindex')]).toEqual([
      'dialog',
      'Privacy',
      '-1',
    ]);
    expect(prompt.hasAttribute('aria-modal')).toBe(false);
    expect(document.activeElement).toBe(prompt);
  });

  it('switches to the post-prompt and gives focus back', () => {
    outside.focus();
    const render = createUi(host, { prompt, post, overlay: false, caption: 'Privacy' });
    render(run(start(true)));
    render(run(start(true), decide('accepted')));
    expect(prompt.classList.contains('page-consent-shown')).toBe(false);
    expect(post.classList.contains('page-consent-shown')).toBe(true);
    expect(host.classList.contains('page-consent-shown')).toBe(true);
    expect(document.activeElement).toBe(outside);
  });

  it('hides everything when nothing is due', () => {
    const render = createUi(host, { prompt, post, overlay: false, caption: 'x' });
    render(run(start(true)));
    render(run(start(false)));
    expect(host.classList.contains('page-consent-shown')).toBe(false);
    expect(prompt.classList.contains('page-consent-shown')).toBe(false);
  });

  it('removes the hidden attribute from the prompt it shows and leaves it on the post-prompt', () => {
    prompt.hidden = post.hidden = true;
    const render = createUi(host, { prompt, post, overlay: false, caption: 'x' });
    render(run(start(true)));
    expect([prompt.hidden, post.hidden]).toEqual([false, true]);
  });

  it('sets hidden again on the prompt it hides and removes it from the post-prompt it shows', () => {
    prompt.hidden = post.hidden = true;
    const render = createUi(host, { prompt, post, overlay: false, caption: 'x' });
    render(run(start(true)));
    render(run(start(true), decide('accepted')));
    expect([prompt.hidden, post.hidden]).toEqual([true, false]);
  });

  it('sets hidden on a shown UI whose markup lacked it once it hides it', () => {
    const render = createUi(host, { prompt, post, overlay: false, caption: 'x' });
    render(run(start(true)));
    expect(prompt.hidden).toBe(false);
    render(run(start(false)));
    expect(prompt.hidden).toBe(true);
  });

  it('keeps hidden on every UI while nothing is due', () => {
    prompt.hidden = post.hidden = true;
    const render = createUi(host, { prompt, post, overlay: false, caption: 'x' });
    render(run(start(false)));
    expect([prompt.hidden, post.hidden]).toEqual([true, true]);
  });

  it('marks a post-prompt outside the element and shows it in place', () => {
    const elsewhere = document.getElementById('main')!;
    const render = createUi(host, { prompt, post: elsewhere, overlay: false, caption: 'x' });
    expect(elsewhere.classList.contains('page-consent-ui')).toBe(true);
    elsewhere.hidden = true;
    render(run(start(true), decide('rejected')));
    expect(elsewhere.classList.contains('page-consent-shown')).toBe(true);
    expect(elsewhere.hidden).toBe(false);
    expect(host.classList.contains('page-consent-shown')).toBe(false);
  });

  it('adds the overlay, makes the rest of the page inert and locks scrolling, then undoes it', () => {
    const render = createUi(host, { prompt, post, overlay: true, caption: 'x' });
    render(run(start(true)));
    expect(document.querySelector('.page-consent-overlay')).not.toBeNull();
    expect(prompt.getAttribute('aria-modal')).toBe('true');
    expect(outside.inert).toBe(true);
    expect(document.getElementById('main')!.inert).toBe(true);
    expect(host.inert).toBeFalsy();
    expect(document.documentElement.classList.contains('page-consent-locked')).toBe(true);
    render(run(start(true), decide('accepted')));
    expect(document.querySelector('.page-consent-overlay')).toBeNull();
    expect(outside.inert).toBe(false);
    expect(document.documentElement.classList.contains('page-consent-locked')).toBe(false);
  });

  it('keeps an element the page made inert itself', () => {
    outside.inert = true;
    const render = createUi(host, { prompt, post, overlay: true, caption: 'x' });
    render(run(start(true)));
    render(run(start(true), decide('accepted')));
    expect(outside.inert).toBe(true);
  });
});
