/**
 * The JSON config of `<page-story-consent>` (docs/consent.md, "The story prompt"): title,
 * message, vendors, optional externalLink and onlyAccept. Pure; shared by the story prompt
 * (src/consent/story.ts renders it) and the validator.
 */
import { diagnostic } from './diagnostic.ts';
import { parseLoadableUrl } from './url.ts';
import { collector, readBoolean, readFields, readList, readText } from './values.ts';

export type StoryConfig = {
  readonly title: string;
  readonly message: string;
  readonly vendors: readonly string[];
  readonly onlyAccept?: boolean;
  readonly externalLink?: { readonly title?: string; readonly href?: string };
};

const readStory = readFields<StoryConfig>({
  title: readText(200, 1),
  message: readText(2000, 1),
  vendors: readList(readText(200, 1)),
  onlyAccept: readBoolean,
  externalLink: readFields({ title: readText(200, 1), href: readText(2000, 1) }),
});

/** The story config of parsed JSON; null (with diagnostics) without title, message or vendors. */
export function parseStoryJson(
  json: unknown,
  baseUrl: string,
  into = collector('consent-story-invalid'),
): StoryConfig | null {
  const config = readStory(into, json, 'story');
  const { href = '', title } = config?.externalLink ?? {};
  if (config?.externalLink && (!title || !parseLoadableUrl(href, baseUrl))) {
    into.diagnostics.push(
      diagnostic(into.code, 'a title and an http(s) href', config.externalLink, 'story.externalLink'),
    );
  }
  if (config?.title && config.message && config.vendors) return config;
  // No object at all has been reported by readStory already: one diagnostic per cause.
  if (config) into.diagnostics.push(diagnostic(into.code, 'story: a title, a message and vendors', config));
  return null;
}
