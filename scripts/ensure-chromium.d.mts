/** Types of ensure-chromium.mjs, for the TypeScript that launches the same Chromium (the page audit). */
export const CHROMIUM: string;
/** The Chromium executable's path; installs Debian's package when missing and running as root. */
export function ensureChromium(): string;
