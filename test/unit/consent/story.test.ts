// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderStoryPrompt } from '../../../src/consent/story.ts';

const STORY = {
  title: 'Your privacy',
  message: 'We and our partners use cookies to show ads.',
  vendors: ['Ad Network', 'Analytics Co'],
};

/** A story element with `config` as its JSON child, inside a `<page-consent>` of a page in `lang`. */
function storyIn(lang: string, config: object = STORY) {
  document.documentElement.lang = lang;
  document.body.innerHTML = `<page-consent id="consent"><page-story-consent hidden><script type="application/json">${JSON.stringify(config)}</script></page-story-consent></page-consent>`;
  return document.querySelector<HTMLElement>('page-story-consent')!;
}

afterEach(() => {
  document.documentElement.lang = '';
  document.body.replaceChildren();
});

describe('renderStoryPrompt', () => {
  it.each([
    ['de-AT', ['Ablehnen', 'Akzeptieren']],
    ['el', ['Απόρριψη', 'Αποδοχή']],
    ['nn', ['Avvis', 'Godta']],
    ['ar', ['Decline', 'Accept']],
  ])('labels its buttons in the page language (%s), English when there is no catalogue', (lang, texts) => {
    const report = vi.fn();
    const story = renderStoryPrompt(storyIn(lang), () => {}, report);
    expect(report).not.toHaveBeenCalled();
    expect([...story!.querySelectorAll('button')].map((button) => button.textContent)).toEqual(texts);
  });

  it('decides through its buttons: decline rejects, accept accepts', () => {
    const decide = vi.fn();
    const story = renderStoryPrompt(storyIn('en'), decide, () => {})!;
    for (const button of story.querySelectorAll('button')) button.click();
    expect(decide.mock.calls).toEqual([['rejected'], ['accepted']]);
  });
});
