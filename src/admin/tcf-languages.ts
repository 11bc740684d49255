/**
 * The languages the hosted TCF prompt speaks (docs/server.md, "Languages of the hosted
 * prompt"): complete ones (its own texts and the IAB translation covering the GVL), and the
 * others with what they lack, so an operator sees which readers get the English prompt.
 */
import { json } from './api.ts';
import { $ } from './dom.ts';

type LanguageStatus = {
  language: string;
  translationFile: string | null;
  state: 'complete' | 'partial' | 'missing';
  untranslated?: string;
};

export async function showTcfLanguages(): Promise<void> {
  const { languages } = await json<{ languages: LanguageStatus[] | null }>('/admin/api/tcf/languages');
  if (!languages) return;
  const complete = languages.filter((l) => l.state === 'complete').map((l) => l.language);
  const lacking = languages
    .filter((l) => l.state !== 'complete')
    .map((l) =>
      l.state === 'missing'
        ? l.language + ' (no ' + l.translationFile + ')'
        : l.language + ' (' + l.translationFile + ' lacks ' + l.untranslated + ')',
    );
  $('tcf-languages').textContent =
    'Prompt languages complete (own texts and IAB translation): ' +
    complete.join(', ') +
    '.' +
    (lacking.length ? ' Shown in English instead: ' + lacking.join(', ') + '.' : '');
}
