/**
 * The network script of a `<page-ad>` type: its URL, which the page may override with
 * `<meta name="page-ad-script-<type>" content="URL">` (URL rule, docs/runtime.md, "The URL rule"), loaded once per page.
 */
import { readLoadableUrl } from '../../wire/url.ts';
import type { ContentElement } from '../content-element.ts';

const loaded = new Set<string>();

/** The script URL for `type` (undefined, reported as `url-refused`, when the override is refused). */
export function readScriptUrl(owner: ContentElement, type: string, defaultUrl: string): URL | undefined {
  const override = document.querySelector(`meta[name="page-ad-script-${type}"]`)?.getAttribute('content');
  return readLoadableUrl(override ?? defaultUrl, document.baseURI, owner);
}

/** Adds `<script async src>` for `type` unless an earlier slot of that type did. */
export function loadScriptOnce(type: string, url: URL): void {
  if (loaded.has(type)) return;
  loaded.add(type);
  const script = document.createElement('script');
  script.async = true;
  script.src = url.href;
  document.head.append(script);
}
