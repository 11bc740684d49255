/**
 * The runtime's own URL macros (docs/runtime.md): the only ones expanded in `checkConsentHref` and
 * `onUpdateHref`; `promptUiSrc` adds `CONSENT_INFO(field)`. Ad URLs also get the consent macros.
 */
export const PAGE_MACROS = [
  'CLIENT_ID',
  'PAGE_VIEW_ID',
  'PAGE_VIEW_ID_64',
  'CONSENT_PAGE_VIEW_ID_64',
  'CANONICAL_URL',
  'SOURCE_URL',
];
