/**
 * The story prompt's two button texts in the page's language (`<html lang>`), from the same
 * message catalogues as the hosted prompt. Only these two texts of each catalogue are bundled:
 * the named JSON imports let the bundler drop every other key.
 */
import { accept as bgAccept, decline as bgDecline } from './catalogues/bg.json';
import { accept as csAccept, decline as csDecline } from './catalogues/cs.json';
import { accept as daAccept, decline as daDecline } from './catalogues/da.json';
import { accept as deAccept, decline as deDecline } from './catalogues/de.json';
import { accept as elAccept, decline as elDecline } from './catalogues/el.json';
import { accept as enAccept, decline as enDecline } from './catalogues/en.json';
import { accept as esAccept, decline as esDecline } from './catalogues/es.json';
import { accept as etAccept, decline as etDecline } from './catalogues/et.json';
import { accept as fiAccept, decline as fiDecline } from './catalogues/fi.json';
import { accept as frAccept, decline as frDecline } from './catalogues/fr.json';
import { accept as gaAccept, decline as gaDecline } from './catalogues/ga.json';
import { accept as hrAccept, decline as hrDecline } from './catalogues/hr.json';
import { accept as huAccept, decline as huDecline } from './catalogues/hu.json';
import { accept as isAccept, decline as isDecline } from './catalogues/is.json';
import { accept as itAccept, decline as itDecline } from './catalogues/it.json';
import { accept as ltAccept, decline as ltDecline } from './catalogues/lt.json';
import { accept as lvAccept, decline as lvDecline } from './catalogues/lv.json';
import { accept as mtAccept, decline as mtDecline } from './catalogues/mt.json';
import { accept as nbAccept, decline as nbDecline } from './catalogues/nb.json';
import { accept as nlAccept, decline as nlDecline } from './catalogues/nl.json';
import { accept as plAccept, decline as plDecline } from './catalogues/pl.json';
import { accept as ptAccept, decline as ptDecline } from './catalogues/pt.json';
import { accept as roAccept, decline as roDecline } from './catalogues/ro.json';
import { accept as skAccept, decline as skDecline } from './catalogues/sk.json';
import { accept as slAccept, decline as slDecline } from './catalogues/sl.json';
import { accept as svAccept, decline as svDecline } from './catalogues/sv.json';
import { type CmpLanguage, matchLanguage } from './language.ts';

const TEXTS: Readonly<Record<CmpLanguage, readonly [string, string]>> = {
  bg: [bgAccept, bgDecline],
  cs: [csAccept, csDecline],
  da: [daAccept, daDecline],
  de: [deAccept, deDecline],
  el: [elAccept, elDecline],
  en: [enAccept, enDecline],
  es: [esAccept, esDecline],
  et: [etAccept, etDecline],
  fi: [fiAccept, fiDecline],
  fr: [frAccept, frDecline],
  ga: [gaAccept, gaDecline],
  hr: [hrAccept, hrDecline],
  hu: [huAccept, huDecline],
  is: [isAccept, isDecline],
  it: [itAccept, itDecline],
  lt: [ltAccept, ltDecline],
  lv: [lvAccept, lvDecline],
  mt: [mtAccept, mtDecline],
  nb: [nbAccept, nbDecline],
  nl: [nlAccept, nlDecline],
  pl: [plAccept, plDecline],
  pt: [ptAccept, ptDecline],
  ro: [roAccept, roDecline],
  sk: [skAccept, skDecline],
  sl: [slAccept, slDecline],
  sv: [svAccept, svDecline],
};

/** Accept and decline in the language of `lang` (a BCP 47 tag), English when we have no catalogue for it. */
export function storyButtonTexts(lang: string): { readonly accept: string; readonly decline: string } {
  const [accept, decline] = TEXTS[matchLanguage(lang) ?? 'en'];
  return { accept, decline };
}
