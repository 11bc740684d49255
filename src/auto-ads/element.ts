/**
 * `<page-auto-ads type data-*>`: checks its markup, fetches the network's config once the
 * document is first visible, then hands the parsed config to the placement strategy and the
 * anchor ad. Thin: the logic lives in the pure modules next to it.
 */
import type { DiagnosticLevel, PageElementConstructor, PageRuntime } from '../runtime/index.ts';
import { insertAnchorAd } from './anchor-ad.ts';
import { findInvalidSelector } from './anchors.ts';
import { type AutoAdsConfig, parseAutoAdsConfig } from '../wire/auto-ads-config.ts';
import { mergeAttributes, readConsentMarkers } from './attributes.ts';
import { describeRun, drawDebugOverlay, isDebugRequested } from './debug-overlay.ts';
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';
import { readBody } from '../wire/read-body.ts';
import { type AdNetwork, getNetwork, NETWORKS } from '../wire/auto-ads-networks.ts';
import { countSkipped, SLOT_DEFAULTS } from './placement.ts';
import { createStrategy } from './strategy.ts';
import { FORMAT_PARTS, type FormatOptions, loadAutoAdsPart } from './parts.ts';
import type { ExperimentPart } from './experiment.ts';

/** Time after which a config request is given up. */
export const CONFIG_TIMEOUT_MS = 10_000;
/** The config's byte cap (docs/reliability.md, "Byte caps"): the reference server's admin bodies are at most 1 MB. */
export const CONFIG_MAX_BYTES = 1 << 20;

const whenVisible = () =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (document.hidden) return;
      document.removeEventListener('visibilitychange', check);
      resolve();
    };
    document.addEventListener('visibilitychange', check);
    check();
  });

/** The first scan waits for the parser, so that the first `ads-placed` covers the whole page. */
const whenParsed = () =>
  new Promise((resolve) =>
    document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', resolve) : resolve(0),
  );

export function createAutoAdsElement(page: PageRuntime, scriptUrl?: string): PageElementConstructor {
  return class PageAutoAdsElement extends page.PageElement {
    /** Switches the placement strategy, once the config is there. */
    #setActive?: (isActive: boolean) => void;
    /** false after unlayout (element removed, consent withdrawn) until the next layout. */
    #isActive = true;

    override layoutCallback() {
      this.#switch(true);
    }

    override unlayoutCallback() {
      this.#switch(false);
    }

    #switch(isActive: boolean) {
      this.#isActive = isActive;
      this.#setActive?.(isActive);
    }

    override buildCallback() {
      const { element } = this;
      const type = element.getAttribute('type');
      const network = type && getNetwork(type);
      if (!network) {
        const code = type ? 'auto-ads-type-unknown' : 'auto-ads-type-missing';
        return this.report(diagnostic(code, `type ${Object.keys(NETWORKS).join('|')}`, type ?? undefined));
      }
      const missing = network.required.find((name) => !element.getAttribute(name));
      if (missing)
        return this.report(
          diagnostic('auto-ads-attribute-missing', `a ${missing} attribute for type ${type}`, undefined),
        );
      const first = document.body.firstElementChild;
      if (first !== element)
        this.report(
          diagnostic('auto-ads-not-first-child', 'the first child of <body>', first?.tagName.toLowerCase()),
          'warn',
        );
      const canonical = document.querySelector<HTMLLinkElement>('link[rel=canonical]')?.href || location.href;
      const url = network.getConfigUrl({
        data: { ...element.dataset },
        canonicalUrl: canonical,
        pageUrl: location.href,
      });
      for (const d of url.diagnostics) this.report(d);
      if (url.value) this.#start(network, url.value);
    }

    async #start(network: AdNetwork, url: string) {
      await whenVisible();
      const wire = await this.#fetchConfig(url);
      if (wire === undefined) return;
      const parsed = parseAutoAdsConfig(wire, network.defaultConstraints);
      await whenParsed();
      for (const d of parsed.diagnostics) this.report(d, parsed.value ? 'warn' : 'error');
      let config = parsed.value;
      // The arm of the config's experiment, from its part (src/auto-ads/experiment.ts); without the part, the base config.
      if (config?.experimentSource) {
        const report = (d: Diagnostic, level?: DiagnosticLevel) => this.report(d, level);
        const part = await loadAutoAdsPart<ExperimentPart>(page, 'ads-experiment', scriptUrl ?? '', report);
        config = (await part?.assign({ page, config, configUrl: url, report })) ?? config;
      }
      if (config) this.#place(network, config);
    }

    async #fetchConfig(url: string): Promise<unknown> {
      let text: string | Diagnostic = '';
      try {
        const response = await fetch(url, {
          credentials: 'omit',
          mode: 'cors',
          signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS),
        });
        if (!response.ok) throw `HTTP ${response.status}`;
        text = await readBody(response, CONFIG_MAX_BYTES);
      } catch (error) {
        return this.report(diagnostic('auto-ads-config-fetch-failed', `a 2xx answer from ${url}`, String(error)));
      }
      if (typeof text !== 'string') return this.report(text);
      try {
        return JSON.parse(text);
      } catch {
        this.report(diagnostic('auto-ads-config-invalid', 'a JSON object', text));
      }
    }

    #place(network: AdNetwork, config: AutoAdsConfig) {
      const { element } = this;
      const shared = mergeAttributes(network.getAttributes({ ...element.dataset }), config.attributes);
      // Consent markers come from the page only (docs/auto-ads.md, "Config format"); the config's were dropped by the parser.
      const markers = readConsentMarkers(element);
      if (
        config.isAnchorAdEnabled &&
        !insertAnchorAd(element, mergeAttributes(shared, config.stickyAttributes, markers))
      ) {
        this.report(diagnostic('auto-ads-sticky-ad-exists', 'no other sticky ad for the anchor ad', 'one'), 'warn');
      }
      // The other formats' parts, each only for a config that has one (src/auto-ads/parts.ts).
      const { formats } = config;
      const options: FormatOptions = {
        page,
        formats,
        shared,
        markers,
        maximumAdCount: config.constraints.maximumAdCount,
        isActive: () => this.#isActive,
        report: (d, level) => this.report(d, level),
      };
      for (const [type, name] of FORMAT_PARTS)
        if (formats.some((format) => format.type === type))
          loadAutoAdsPart(page, name, scriptUrl ?? '', options.report).then((part) => part?.start(options));
      const placements = config.placements.filter((placement) => {
        const invalid = findInvalidSelector(placement.anchor, document.createDocumentFragment());
        if (invalid) this.report(diagnostic('auto-ads-selector-invalid', 'a valid CSS selector', invalid), 'warn');
        return !invalid;
      });
      this.#setActive = createStrategy({
        page,
        placements,
        constraints: config.constraints,
        attributes: mergeAttributes(SLOT_DEFAULTS, shared, markers),
        height: () => network.sizing({ width: page.viewport.getWidth(), height: page.viewport.getHeight() }),
        onRun: (result) => {
          const { adsPlaced, totalAdsOnPage, density } = result;
          // the detail of docs/auto-ads.md, "Event"; the reasons join it only when the density limit held ads back.
          const skipped = countSkipped(result.candidates);
          this.dispatch(
            'ads-placed',
            skipped.density ? { adsPlaced, totalAdsOnPage, skipped, density } : { adsPlaced, totalAdsOnPage },
          );
          if (isDebugRequested(location))
            drawDebugOverlay(page, result, describeRun(result, config.constraints, placements), placements);
        },
      });
      this.#setActive(this.#isActive);
    }
  };
}
