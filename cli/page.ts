/**
 * The page under validation: its parsed elements and the URL its relative URLs resolve
 * against (`https://example.invalid/` for a file or stdin, which have no URL of their own).
 */
import { childElements, getAttribute, type HtmlElement, listElements, parseHtml } from './html-tree.ts';

export const FILE_BASE_URL = 'https://example.invalid/';

export type Page = {
  readonly elements: readonly HtmlElement[];
  readonly body: HtmlElement | undefined;
  readonly baseUrl: string;
};

export function readPage(html: string, baseUrl: string = FILE_BASE_URL): Page {
  const elements = listElements(parseHtml(html));
  return { elements, body: elements.find((element) => element.tagName === 'body'), baseUrl };
}

export const findByTag = (page: Page, tag: string): HtmlElement[] =>
  page.elements.filter((element) => element.tagName === tag);

export const findById = (elements: readonly HtmlElement[], id: string): HtmlElement | undefined =>
  elements.find((element) => getAttribute(element, 'id') === id);

/** The JSON `<script>` children of a config-carrying element (`page-consent`, `page-geo`). */
export function findJsonScripts(element: HtmlElement): HtmlElement[] {
  const isJson = (child: HtmlElement) =>
    child.tagName === 'script' && getAttribute(child, 'type')?.trim().toLowerCase() === 'application/json';
  return childElements(element).filter(isJson);
}

/** The tags `<meta name="page-consent-blocking" content="...">` lists, or null without the tag. */
export function readMetaBlocking(
  page: Page,
): { readonly element: HtmlElement; readonly tags: ReadonlySet<string> } | null {
  const element = page.elements.find(
    (candidate) => candidate.tagName === 'meta' && getAttribute(candidate, 'name') === 'page-consent-blocking',
  );
  if (!element) return null;
  const content = getAttribute(element, 'content') ?? '';
  return {
    element,
    tags: new Set(
      content
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    ),
  };
}
