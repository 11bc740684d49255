/**
 * The admin API as the page calls it: the token it sends, the status line, and the guard that
 * shows an action's error there instead of throwing into the page. The answers are the admin
 * API's JSON (docs/server.md, "Admin API"), read as the server writes them.
 */
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

export async function api(path: string, options: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, {
    ...options,
    headers: { Authorization: 'Bearer ' + token, ...(options.body ? { 'Content-Type': 'application/json' } : {}) },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new Error(body.error?.message || response.status + ' ' + response.statusText);
  }
  return response;
}

export const json = async <T>(path: string, options?: RequestInit): Promise<T> =>
  (await api(path, options)).json() as Promise<T>;

export const instancePath = (): string => '/admin/api/instances/' + encodeURIComponent(selectOf('instance').value);

/** An event handler running `work`: the form is not submitted, and an error is said in the status line. */
export const guarded =
  (work: () => unknown) =>
  async (event?: Event): Promise<void> => {
    if (event) event.preventDefault();
    try {
      await work();
    } catch (error) {
      say((error as Error).message, true);
    }
  };

export async function download(format: string): Promise<void> {
  const response = await api(instancePath() + '/export?format=' + format);
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
