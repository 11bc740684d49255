/**
 * The severity of every diagnostic code, one table (docs/errors.md, where each row's meaning
 * starts with "Error" or "Warning"): a warning leaves the page working, every other code is an
 * error. The validator grades its findings with it; the components log these codes with
 * `console.warn` (test/unit/wire/severity.test.ts holds the docs and the call sites to it).
 * Where one code is graded by context (a strict reader such as the server's ads configs refuses
 * on any diagnostic), the caller says so explicitly.
 */
export type Severity = 'error' | 'warning';

const WARNING_CODES: ReadonlySet<string> = new Set([
  'storage-unavailable',
  'storage-corrupt',
  'consent-field-invalid',
  'consent-policy-invalid',
  'consent-geo-instance-id',
  'consent-type-unknown',
  'consent-cmp-message-invalid',
  'consent-prompt-frame-timeout',
  'consent-prompt-client-info',
  'consent-prompt-translation-invalid',
  'consent-prompt-vendor-list-invalid',
  'consent-prompt-gpp-load-failed',
  'consent-cmp-load-failed',
  'consent-sandbox-invalid',
  'consent-geo-missing',
  'consent-geo-timeout',
  'consent-answer-field-invalid',
  'consent-lifetime-invalid',
  'consent-stored-invalid',
  'consent-update-failed',
  'consent-tcf-string-invalid',
  'consent-gpp-string-invalid',
  'consent-frame-listeners-exceeded',
  'consent-mode-mapping-invalid',
  'consent-mode-options-invalid',
  'consent-tcf-config-invalid',
  'consent-tcf-vendor-list-invalid',
  'consent-tcf-vendor-list-failed',
  'consent-gpp-config-invalid',
  'geo-config-invalid',
  'geo-group-invalid',
  'geo-country-invalid',
  'geo-debug-ignored',
  'auto-ads-not-first-child',
  'auto-ads-no-config-reason',
  'auto-ads-field-invalid',
  'auto-ads-placement-invalid',
  'auto-ads-selector-invalid',
  'auto-ads-attribute-dropped',
  'auto-ads-consent-attribute-dropped',
  'auto-ads-url-refused',
  'auto-ads-constraints-invalid',
  'auto-ads-sticky-ad-exists',
  'validate-stub-not-first',
  'validate-script-not-async',
  'validate-extension-unused',
  'validate-consent-layout',
  'validate-purpose-unknown',
  'validate-meta-tag-unknown',
  'validate-blocking-without-consent',
  'validate-auto-ads-nested',
  'validate-geo-group-unknown',
  'validate-ui-not-hidden',
  'validate-reject-missing',
  'validate-story-only-accept',
  'audit-unfair-choice',
]);

export const severityOf = (code: string): Severity => (WARNING_CODES.has(code) ? 'warning' : 'error');
