/** `code@severity` of every finding for a page, the shape most validator tests compare. */
import { validatePage } from '../../../cli/validate-page.ts';

export const codesOf = (html: string, baseUrl?: string): string[] =>
  validatePage(html, baseUrl).map(({ code, severity }) => `${code}@${severity}`);
