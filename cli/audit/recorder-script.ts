/**
 * The script the audit puts in every frame before the page's own scripts run: it reports each
 * storage write (cookie by `document.cookie` or `cookieStore`, `localStorage`,
 * `sessionStorage`, IndexedDB) with the stack of the code that made it, and, in the top frame,
 * each element the runtime built, each blocked `text/plain` script that ran, each
 * `consent-change`, and when `__tcfapi` first answers `ping` and each `eventStatus` it reports
 * (`tcf-answer`). Reports go to the binding `RECORD_BINDING`; the wrapper frames are named
 * `RECORDER_URL`, so the writer is the first other script on the stack.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RECORD_BINDING = '__pageAuditRecord';
export const RECORDER_URL = 'page-audit-recorder.js';

/** One report from the page; `stack` is an `Error().stack`, parsed in Node. */
export type PageRecord = {
  readonly kind:
    | 'cookie'
    | 'localStorage'
    | 'sessionStorage'
    | 'indexedDB'
    | 'built'
    | 'script-run'
    | 'consent-change'
    | 'tcf-answer';
  readonly key: string;
  readonly time: number;
  readonly frameUrl: string;
  readonly stack?: string;
  readonly block?: string | null;
  readonly purposes?: string | null;
  readonly src?: string | null;
  /** `tcf-answer` (key `ping` or `event:<eventStatus>`): ms after the navigation started. */
  readonly since?: number;
};

const RECORDER_FILE = join(dirname(fileURLToPath(import.meta.url)), 'page-recorder.js');

/** The source for `addInitScript`: the recorder, called, named `RECORDER_URL` in stacks. */
export const recorderSource = (): string =>
  `(() => {\n${readFileSync(RECORDER_FILE, 'utf8')}\nrecorder(${JSON.stringify(RECORD_BINDING)});\n})();\n//# sourceURL=${RECORDER_URL}`;
