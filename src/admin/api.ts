/**
 * The admin API as the page calls it: the token it sends, the status line, and the guard that
 * shows an action's error there instead of throwing into the page. The answers are the admin
 * API's JSON (docs/server.md, "Admin API"), read as the server writes them; an error answer
 * goes through the wire layer's reader of the server's error envelope.
 */
import { formatDiagnostic } from '../wire/diagnostic.ts';
import { parseServerError } from '../wire/server-error.ts';
import { $, selectOf } from './dom.ts';

let token = '';
export const currentToken = (): string => token;
export const setToken = (value: string): void => {
  token = value;
};

export function say(text: string, isError?: boolean): void {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : '';
}

/** The admin API's answer to one request, refused after `timeoutMs` (the body included) with an error saying so. */
export async function api(path: string, options: RequestInit = {}, timeoutMs = 30_000): Promise<Response> {
  const response = await fetch(path, {
    ...options,
    signal: AbortSignal.timeout(timeoutMs),
    headers: { Authorization: 'Bearer ' + token, ...(options.body ? { 'Content-Type': 'application/json' } : {}) },
  }).catch((error: Error) => {
    throw error.name === 'TimeoutError'
      ? new Error('No answer from ' + path + ' within ' + timeoutMs / 1000 + ' s.')
      : error;
  });
  if (!response.ok) {
    const { value, diagnostics } = parseServerError(await response.json().catch(() => undefined));
    throw new Error(
      value
        ? value.message
        : response.status + ' ' + response.statusText + ' (' + formatDiagnostic('admin', diagnostics[0]!) + ')',
    );
  }
  return response;
}

export const json = async <T>(path: string, options?: RequestInit): Promise<T> =>
  (await api(path, options)).json() as Promise<T>;

export const instancePath = (): string => '/admin/api/instances/' + encodeURIComponent(selectOf('instance').value);

/** Shows `message` in the error line `id` beside a section. */
export function showError(id: string, message: string): void {
  $(id).textContent = message;
  $(id).hidden = false;
}

/**
 * An event handler running `work`: the form is not submitted, and an error is said in the
 * status line, and in the error line `beside` (the section's, cleared when `work` starts).
 */
export const guarded =
  (work: () => unknown, beside?: string) =>
  async (event?: Event): Promise<void> => {
    if (event) event.preventDefault();
    if (beside) $(beside).hidden = true;
    try {
      await work();
    } catch (error) {
      say((error as Error).message, true);
      if (beside) showError(beside, (error as Error).message);
    }
  };

export async function download(format: string): Promise<void> {
  // An export streams the whole log: ten minutes for it to arrive.
  const response = await api(instancePath() + '/export?format=' + format, {}, 600_000);
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), {
    href: url,
    download: selectOf('instance').value + '-records.' + format,
  });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
