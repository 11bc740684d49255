import { describe, expect, it } from 'vitest';
import { codesOf } from './codes.ts';
import { breakPage } from './pages.ts';

describe('checkConsentUi', () => {
  it('warns about a prompt or post-prompt written without hidden', () => {
    expect(codesOf(breakPage('<div id="prompt" hidden>', '<div id="prompt">'))).toEqual([
      'validate-ui-not-hidden@warning',
    ]);
    expect(codesOf(breakPage('<div id="settings" hidden>', '<div id="settings">'))).toEqual([
      'validate-ui-not-hidden@warning',
    ]);
  });

  it('warns about a prompt that offers accept without reject', () => {
    expect(codesOf(breakPage('<button on="tap:consent.reject">Reject</button>', ''))).toEqual([
      'validate-reject-missing@warning',
    ]);
  });

  it('counts a reject action on any event of any element inside the prompt', () => {
    const page = breakPage(
      '<button on="tap:consent.reject">Reject</button>',
      '<span role="button" on="tap:other.hide;tap:consent.reject">No</span>',
    );
    expect(codesOf(page)).toEqual([]);
  });

  it('ignores a reject action that targets another element', () => {
    expect(codesOf(breakPage('tap:consent.reject', 'tap:elsewhere.reject'))).toEqual([
      'validate-reject-missing@warning',
    ]);
  });
  describe('story prompt', () => {
    const STORY = (config: object, hidden = ' hidden') =>
      `<page-story-consent layout="nodisplay"${hidden}><script type="application/json">${JSON.stringify(config)}</script></page-story-consent>`;
    const valid = { title: 'Your privacy', message: 'We and our partners use cookies.', vendors: ['Ads Inc'] };
    const withStory = (markup: string) =>
      breakPage('<div id="settings" hidden>', `${markup}<div id="settings" hidden>`);

    it('accepts a valid story prompt written hidden', () => {
      expect(codesOf(withStory(STORY(valid)))).toEqual([]);
    });

    it('warns about a story prompt written without hidden', () => {
      expect(codesOf(withStory(STORY(valid, '')))).toEqual(['validate-ui-not-hidden@warning']);
    });

    it("reads the story config with the component's parser", () => {
      expect(codesOf(withStory(STORY({ title: 'Your privacy', vendors: 'Ads Inc' })))).toContain(
        'consent-story-invalid@error',
      );
    });

    it('refuses a story prompt together with promptUiSrc, as the component does', () => {
      const page = breakPage(
        '"promptUI":"prompt"',
        '"promptUI":"prompt","promptUiSrc":"https://cmp.example/prompt.html"',
        withStory(STORY(valid)),
      );
      expect(codesOf(page)).toEqual(['consent-story-with-prompt-src@error']);
    });

    it('warns about onlyAccept where consent is required', () => {
      expect(codesOf(withStory(STORY({ ...valid, onlyAccept: true })))).toEqual(['validate-story-only-accept@warning']);
    });
  });
});
