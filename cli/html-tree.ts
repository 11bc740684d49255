/**
 * The page as parse5 sees it (a real HTML parser, with source locations), and the few reads
 * the checks need: elements in document order, attributes, text, ancestors.
 */
import { type DefaultTreeAdapterMap, parse } from 'parse5';

export type HtmlElement = DefaultTreeAdapterMap['element'];
type HtmlNode = DefaultTreeAdapterMap['node'];

export type Position = { readonly line: number; readonly column: number };

export function parseHtml(html: string): DefaultTreeAdapterMap['document'] {
  return parse(html, { sourceCodeLocationInfo: true });
}

const isElement = (node: HtmlNode): node is HtmlElement => 'tagName' in node;

/** Every element under `root`, in document order (template contents included). */
export function listElements(root: HtmlNode): HtmlElement[] {
  const found: HtmlElement[] = [];
  const visit = (node: HtmlNode) => {
    if (isElement(node)) found.push(node);
    const children = 'childNodes' in node ? node.childNodes : [];
    for (const child of children) visit(child);
    if (node.nodeName === 'template' && 'content' in node) visit(node.content);
  };
  visit(root);
  return found;
}

export function getAttribute(element: HtmlElement, name: string): string | null {
  return element.attrs.find((attribute) => attribute.name === name)?.value ?? null;
}

export const hasAttribute = (element: HtmlElement, name: string): boolean => getAttribute(element, name) !== null;

export const childElements = (element: HtmlElement): HtmlElement[] => element.childNodes.filter(isElement);

export function readText(element: HtmlElement): string {
  return element.childNodes.map((node) => ('value' in node && node.nodeName === '#text' ? node.value : '')).join('');
}

/** The element's parent element, or null at the top. */
export function getParentElement(element: HtmlElement): HtmlElement | null {
  const parent = element.parentNode;
  return parent && isElement(parent) ? parent : null;
}

export function isDescendantOf(element: HtmlElement, ancestor: HtmlElement): boolean {
  for (let parent = getParentElement(element); parent; parent = getParentElement(parent)) {
    if (parent === ancestor) return true;
  }
  return false;
}

/** Where the element (or one of its attributes) starts in the source; 1-based. */
export function locate(element: HtmlElement, attribute?: string): Position {
  const location = element.sourceCodeLocation;
  const at = (attribute && location?.attrs?.[attribute]) || location;
  return { line: at?.startLine ?? 1, column: at?.startCol ?? 1 };
}

/** `getAttribute`/`tagName` as a DOM element offers them, for the runtime's pure readers. */
export function asDomAttributes(element: HtmlElement): Pick<Element, 'getAttribute' | 'tagName'> {
  return { getAttribute: (name: string) => getAttribute(element, name), tagName: element.tagName.toUpperCase() };
}
