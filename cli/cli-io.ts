/** What the command line reads and writes through (the process in page-validate.mjs, a fake in tests). */
import type { FetchOptions } from './fetch-page.ts';

export type CliIo = {
  readonly stdin: AsyncIterable<string | Uint8Array>;
  write(text: string): void;
  writeError(text: string): void;
  /** stderr is a terminal: a site audit draws its progress bar there (cli/audit/progress.ts). */
  readonly isTerminal?: boolean;
  /** The terminal's width in columns, where known. */
  readonly terminalColumns?: number;
  /** Colour the severities (a terminal without NO_COLOR). */
  readonly isColour?: boolean;
  /** Limits of a URL fetch; only tests change them (page-validate.mjs never sets this). */
  readonly fetchOptions?: FetchOptions;
};
