/**
 * `<page-consent>`: wires the pure config, state, policy, remote and UI modules to the page.
 * One element per page; never blocked by consent itself.
 */
import type { Diagnostic, DiagnosticLevel, Layout, PageRuntime } from '../runtime/index.ts';
import {
  type ConsentConfig,
  type ConsentCoreConfig,
  isObject,
  parseConsentCoreConfig,
} from '../wire/consent-config.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { whenIdle } from '../browser-shared/idle.ts';
import { readReturnEntry, returnKeyOf } from '../wire/return-record.ts';
import { decisionKeyOf } from './controller.ts';
import { freshStartEventOf } from './lifetime.ts';
import { answerCreatives } from './creative-reply.ts';
import { type ConsentParts, loadConsentPart } from './parts.ts';
import { createPromptUi } from './prompt-ui.ts';
import type { DecisionData } from '../wire/consent.ts';
import { CONSENT_ACTIONS } from './action-names.ts';
import { type ConsentModel, type Decision, initialModel, startUndecided } from './state.ts';
import type { Ui } from './ui.ts';

/** The element implementation: the runtime's base class with its report/action/event helpers. */
type Host = InstanceType<PageRuntime['PageElement']>;
type Report = (d: Diagnostic, level?: DiagnosticLevel) => void;

/**
 * The matched geo groups from `<page-geo>` (the geo part waits for them, and starts the signals
 * no group changes first); none without the element, or without the part (reported by the loader).
 */
async function readGeoGroups(
  page: PageRuntime,
  json: unknown,
  report: Report,
  load: () => Promise<ConsentParts['geo'] | undefined>,
  startSignals: () => void,
) {
  if (document.querySelector('page-geo'))
    return (await load())?.waitForGeoGroups(page, report, json, startSignals) ?? [];
  if (isObject(json) && json.geoOverride) report(diagnostic('consent-geo-missing', '<page-geo>', null), 'warn');
  return [];
}

/** Resolves after the next painted frame (at once in a hidden document, which paints none). */
const afterFirstFrame = () =>
  document.hidden ? Promise.resolve() : new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/** Consent Mode's default and the TCF/GPP stubs start as early as they can (with the state part at once). */
const hasUrgentSignals = (config: ConsentCoreConfig) =>
  config.consentModeMapping !== undefined || !!config.exposesTcfApi || !!config.exposesGppApi;

async function startConsent(host: Host, checked: Promise<void>, scriptUrl: string): Promise<void> {
  const { element, runtime: page } = host;
  const report: Report = host.report.bind(host);
  let config: ConsentCoreConfig | null = null;
  // With its timing, read by the state part.
  let timed: ConsentConfig | null = null;
  let render: Ui | undefined;
  let signal: ((model: ConsentModel) => void) | undefined;
  let signals: Promise<unknown> | undefined;
  // A return record was replayed (below) and knew every request so far.
  let isCovered = false;
  const load = <K extends keyof ConsentParts>(name: K) => loadConsentPart(page, name, scriptUrl, report);
  // The state part (reducer, controller, policy, provider): requested by `requestState`, at once
  // unless a first visit's prompt paints first (docs/decisions/first-screen-parts.md). Events
  // given before it started wait for it; without it (one diagnostic) nothing unblocks.
  let requestState = () => {};
  let onStart = () => {};
  let isStarted = false;
  const hasStarted = new Promise<void>((resolve) => (onStart = resolve));
  const made = new Promise<void>((resolve) => (requestState = resolve))
    .then(() => load('state'))
    .then((part) => {
      if (!part) return undefined;
      const view = () => ({ fallbackAction: timed?.fallbackAction ?? 'dismiss', hasPrompt: !!render?.hasPrompt });
      const onModel = (model: ConsentModel) => {
        isStarted = true;
        onStart();
        render?.(model);
        signal?.(model);
      };
      return {
        ...part.createConsentState(host, {
          load,
          report,
          checked,
          view,
          onModel,
          isCovered: () => isCovered,
          whenIdle,
          returnItem,
          parse,
        }),
        parseConsentTiming: part.parseConsentTiming,
        startSignals: part.startSignals,
      };
    });
  let current: Awaited<typeof made>;
  const whenStarted = made.then((ready) => (current = ready));
  // Before the `start` event (the first change) the reducer would ignore a decision: it waits.
  const withState = (use: (state: NonNullable<typeof current>) => void) =>
    isStarted ? current && use(current) : void hasStarted.then(() => current && use(current));

  // Actions exist from the build on; the reducer ignores them until a prompt is shown. A first
  // use ends the wait for idle below, as a request the replayed record does not know does.
  let use = () => {};
  const used = new Promise<void>((resolve) => (use = resolve));
  for (const name of CONSENT_ACTIONS)
    host.registerAction(name, (args) => (use(), withState((state) => state.act(name, args))));
  answerCreatives(
    (event) => (
      use(),
      Promise.all([load('creative'), made]).then(
        ([part, ready]) => ready && part?.replyToCreative(event, ready.provider, report),
      )
    ),
  );
  // The config and <page-geo> may not be parsed yet when the scripts run first (cached scripts).
  if (document.readyState === 'loading') await new Promise((resolve) => addEventListener('DOMContentLoaded', resolve));
  const json = readConfigScript(element);
  const type = element.getAttribute('type');
  const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  // The return record (docs/decisions/consent-return-record.md): what the stored decision allowed
  // starts now; the rest waits for the first idle period, a first use or a request the record
  // does not know.
  let text: string | null = null;
  const returnItem = returnKeyOf(element.id, type, json, hasGpc);
  try {
    text = localStorage.getItem(returnItem);
  } catch {}
  const lines = readReturnEntry(text, page.storage.get, Date.now());
  if (lines) {
    isCovered = true;
    page.replayConsent(host, lines, () => {
      isCovered = false;
      use();
    });
    if (lines[0] === '1') await Promise.race([whenIdle(), used]);
  }
  const presets = type === null ? {} : ((await load('presets'))?.CMP_PRESETS ?? {});
  const parse = (geoGroups: string[]) =>
    parseConsentCoreConfig(json, { geoGroups, type, baseUrl: location.href, presets });
  // Consent Mode's default comes before any decision is applied, the TCF/GPP stubs as early as
  // they can; a page with neither gets `__uspapi` after the prompt's first frame.
  const startSignalsOnce = (found: ConsentCoreConfig | null) => {
    if (!found || !element.id || signals) return;
    const isUrgent = hasUrgentSignals(found);
    if (isUrgent) requestState();
    // The signals come with the state part.
    signals = (isUrgent ? Promise.resolve() : afterFirstFrame())
      .then(() => made)
      .then((ready) => {
        if (!ready) return;
        signal = ready.startSignals(page, found, report, scriptUrl, ready.controller);
        signal(ready.controller.model());
      });
  };
  const geoGroups = await readGeoGroups(
    page,
    json,
    report,
    () => load('geo'),
    () => startSignalsOnce(parse([]).value),
  );
  const { value, diagnostics } = parse(geoGroups);
  config = element.id ? value : null;
  // One error says why a config fails (the parser's last diagnostic, or the missing id); the rest warn.
  const fatal = !config && element.id ? diagnostics.at(-1) : undefined;
  for (const d of diagnostics) report(d, d === fatal ? 'error' : 'warn');
  if (!element.id) report(diagnostic('consent-id-missing', 'an id', null));
  // A first visit (nothing cached for the instance, an inline or story prompt) shows what the
  // `start` event calls for before the state part is requested; every other page requests it now.
  const start =
    config &&
    !config.promptUiSrc &&
    !hasUrgentSignals(config) &&
    page.storage.get(decisionKeyOf(config.consentInstanceId)) == null
      ? startUndecided(initialModel, freshStartEventOf(config, hasGpc))
      : null;
  const first = start?.isPromptShown ? start : null;
  if (!first) requestState();
  if (config) {
    startSignalsOnce(config);
    const find = (id: string | undefined, root: ParentNode, code: string) => {
      const found = id ? root.querySelector<HTMLElement>(`#${CSS.escape(id)}`) : null;
      if (id && !found) report(diagnostic(code, 'an element with that id', id));
      return found;
    };
    const inline = find(config.promptUI, element, 'consent-prompt-missing');
    // The story part only where the story is the prompt (there without an inline prompt, or named
    // by promptUI; never with an iframe).
    const isStory = inline
      ? inline.localName === 'page-story-consent'
      : element.querySelector(':scope>page-story-consent') !== null;
    const story = isStory && !config.promptUiSrc ? await load('story') : undefined;
    const frame = config.promptUiSrc ? await load('frame') : undefined;
    const post = find(config.postPromptUI, document, 'consent-post-prompt-missing');
    const decide = (decision: Decision, data: DecisionData = {}) =>
      withState((state) => state.controller.dispatch({ type: 'decide', decision, ...data }));
    render = createPromptUi(element, config, {
      page,
      scriptUrl,
      inline,
      post,
      decide,
      clock: self,
      report,
      ...(story && { renderStory: story.renderStoryPrompt }),
      ...(frame && {
        frame: { createFrameUi: frame.createFrameUi, model: () => current?.controller.model() ?? initialModel },
      }),
    });
    if (first) {
      render(first);
      await afterFirstFrame();
      requestState();
    }
    if (config.consentModeMapping !== undefined) await signals;
  }
  const ready = await whenStarted;
  // The timing (policy timeout, lifetime) is the state part's to read: its problems are warnings.
  const timing = config && ready?.parseConsentTiming(config);
  for (const d of timing?.diagnostics ?? []) report(d, 'warn');
  timed = config && timing ? { ...config, ...timing.value } : null;
  await ready?.controller.start(timed, config?.matchedGeoGroup ?? geoGroups[0] ?? null, hasGpc);
}

export function createConsentElement(page: PageRuntime, scriptUrl = '') {
  let active: Element | null = null;
  return class PageConsentElement extends page.PageElement {
    override isBlockable() {
      return false;
    }

    override isLayoutSupported(layout: Layout) {
      return layout === 'nodisplay' || layout === 'container';
    }

    override buildCallback() {
      if (active) return this.report(diagnostic('consent-duplicate', 'one per page', active.id));
      active = this.element;
      let settle = () => {};
      const checked = new Promise<void>((resolve) => (settle = resolve));
      startConsent(this, checked, scriptUrl).finally(settle);
    }
  };
}
