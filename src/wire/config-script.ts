/**
 * The one rule for a component's JSON config (`<page-consent>`, `<page-story-consent>`,
 * `<page-geo>`), on the page and in the validator: the element has exactly one direct child
 * `<script type="application/json">`, and its text is JSON. No such child, two or more, or text
 * that is not JSON all give no config (undefined); the component's parser then reports its own
 * `*-invalid` code (docs/errors.md) and keeps its safe state. Pure: the caller finds the
 * scripts (the DOM in src/browser-shared/config-script.ts, parse5 in the validator).
 */
import { parseJsonText } from './values.ts';

/** The config of the texts of an element's JSON script children, in document order. */
export const parseConfigScripts = (texts: readonly string[]): unknown =>
  texts.length === 1 ? parseJsonText(texts[0]!) : undefined;
