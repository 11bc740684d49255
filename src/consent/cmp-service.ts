/** The service by which `page-consent-cmp-0.1.js` gives `<page-consent>` its `createPromptFrame`. */
export const CMP_SERVICE = 'consent-cmp';
