/**
 * The parts of `page-auto-ads-0.1.js`, each loaded from the script's directory only when the
 * config has a placement of its format: `ads-vignette` (the vignette) and `ads-side-rail` (the
 * side rails), each reading its placement from the config's formats; and `ads-experiment`, for a
 * config with an `experiment`, which picks the page view's arm before anything is placed.
 */
import type { Diagnostic, DiagnosticLevel, PageRuntime } from '../runtime/index.ts';
import type { Attributes } from '../wire/auto-ads-attributes.ts';
import type { FormatPlacement } from '../wire/auto-ads-config.ts';
import { partFile } from '../browser-shared/parts.ts';

export type FormatOptions = {
  readonly page: PageRuntime;
  /** The config's formats; the part reads the first placement of its own, its problems reported as warnings. */
  readonly formats: readonly FormatPlacement[];
  /** Network and config attributes, merged. */
  readonly shared: Attributes;
  /** The consent markers of `<page-auto-ads>`, on top of every other layer. */
  readonly markers: Attributes;
  readonly maximumAdCount: number;
  /** Whether `<page-auto-ads>` is laid out (its consent gate allows it). */
  readonly isActive: () => boolean;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
};

export type FormatPart = { start(options: FormatOptions): void };

type PartName = 'ads-vignette' | 'ads-side-rail' | 'ads-experiment';

/** Each format and the part that shows it. */
export const FORMAT_PARTS: readonly (readonly [FormatPlacement['type'], PartName])[] = [
  ['vignette', 'ads-vignette'],
  ['sideRail', 'ads-side-rail'],
];

/** Part `name` (`page-auto-{name}.<hash>.js`), through the runtime's loader. */
export const loadAutoAdsPart = <T = FormatPart>(
  page: PageRuntime,
  name: PartName,
  scriptUrl: string,
  report: (d: Diagnostic) => void,
) => page.loadPart<T>(partFile(name), scriptUrl, report);
