/**
 * The tag on the page behind an event: the link of its initiator chain just below the page (a
 * script or frame tag, an image), one of our built elements when the event or a link of its
 * chain is such an element's `src`, or an inline script when the page's own code is on top.
 */
import type { LoggedRequest } from './network-log.ts';
import { endpointOf } from './page-config.ts';
import type { Initiator, TagKind } from './report.ts';

const KIND_OF_TYPE: Readonly<Record<string, TagKind>> = { Script: 'script', Image: 'image', Document: 'frame' };

export type TagContext = {
  readonly requests: readonly LoggedRequest[];
  /** The pages of the journey (top-frame documents). */
  readonly pages: ReadonlySet<string>;
  /** Origin + path of every built element's `src`. */
  readonly builtSources: ReadonlySet<string>;
};

const kindOfUrl = (url: string, context: TagContext): TagKind => {
  const type = context.requests.find((request) => request.url === url)?.type ?? '';
  return Object.hasOwn(KIND_OF_TYPE, type) ? (KIND_OF_TYPE[type] ?? 'other') : 'other';
};

/**
 * `subject`: the URL of the request itself (null for a write); `isByScript`: the immediate
 * initiator is a running script rather than a parser.
 */
export function describeInitiator(
  chain: readonly string[],
  subject: string | null,
  isByScript: boolean,
  context: TagContext,
): Initiator {
  const isBuiltSource = (url: string | null) => {
    const endpoint = url === null ? null : endpointOf(url);
    return endpoint !== null && context.builtSources.has(endpoint);
  };
  const element = [subject, ...chain].filter((url): url is string => url !== null).findLast(isBuiltSource);
  if (element) return { chain, tag: { kind: 'element', url: element } };
  const pageIndex = chain.findIndex((url) => context.pages.has(url));
  if (pageIndex > 0) {
    const url = chain[pageIndex - 1] ?? null;
    return { chain, tag: { kind: url === null ? 'other' : kindOfUrl(url, context), url } };
  }
  if (pageIndex === 0) {
    if (isByScript || subject === null) return { chain, tag: { kind: 'inline-script', url: null } };
    return { chain, tag: { kind: kindOfUrl(subject, context), url: subject } };
  }
  const last = chain.at(-1) ?? subject;
  return { chain, tag: { kind: last === null ? 'other' : kindOfUrl(last, context), url: last } };
}
