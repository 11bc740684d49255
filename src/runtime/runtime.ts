/**
 * Assembles the runtime services into the `PageRuntime` object that extensions receive.
 * Safe to import: nothing runs until `createRuntime` is called. Actions, macros, the built-in
 * elements' implementations, the viewport's frames, the change-size arbiter and the vendor API are parts loaded from
 * `partsDirectory` when a page first needs them (docs/decisions/first-screen-parts.md).
 */
import type { ChangeSizeOptions } from './change-size.ts';
import { createConsentGate } from './consent-gate.ts';
import { readMetaBlockedTags } from '../wire/block-markers.ts';
import { report } from './diagnostics.ts';
import { PageElement } from './element.ts';
import { type ActionsPart, createLazyActions } from './lazy-actions.ts';
import { createLazyConsentApi } from './lazy-consent-api.ts';
import { defineLazyElements, type ElementsPart } from './lazy-elements.ts';
import { createLazyMacros, type MacrosPart } from './lazy-macros.ts';
import { createLazyViewport, type ViewportPart } from './lazy-viewport.ts';
import { createLifecycle } from './lifecycle.ts';
import { createServices } from './services.ts';
import { createStorage } from './storage.ts';
import { activateScripts } from './text-plain-scripts.ts';
import type { ConsentApi, ConsentProvider, PageElementInstance, PageRuntime } from './types.ts';
import { loadPart, partFile } from '../browser-shared/parts.ts';

type Parts = {
  actions: ActionsPart;
  macros: MacrosPart;
  elements: ElementsPart;
  'change-size': { createChangeSize(options: ChangeSizeOptions): PageRuntime['attemptChangeSize'] };
  viewport: ViewportPart;
  'consent-api': { createConsentApi(whenProvider: Promise<ConsentProvider | null>): ConsentApi };
};

export function createRuntime(win: Window & typeof globalThis, partsDirectory = ''): PageRuntime {
  const doc = win.document;
  const load = <K extends keyof Parts>(name: K) =>
    loadPart<Parts[K]>(partFile(name), partsDirectory, (d) => report('page-runtime', d));
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
  };
  const gate = createConsentGate(doc, (d) => report('page-consent', d));
  const storage = createStorage({ window: win, hostname: win.location.hostname, report });
  const actions = createLazyActions(
    { document: doc, report, whenBuilt: (element) => lifecycle.whenBuilt(element) },
    () => load('actions'),
  );
  const macros = createLazyMacros({ window: win, document: doc, storage }, gate, () => load('macros'));
  const changeSize = once(async () => {
    const [part, frames] = await Promise.all([load('change-size'), load('viewport')]);
    return (
      frames &&
      part?.createChangeSize({
        ...frames,
        isDocumentHidden: () => doc.hidden,
        lastInteraction: actions.lastInteraction,
        now: () => Date.now(),
      })
    );
  });
  const consentApi = once(async () => (await load('consent-api'))?.createConsentApi(gate.whenProvider));
  let metaBlockedTags: Set<string> | null = null;
  const services = createServices();
  const isConsentElement = (owner: PageElementInstance) =>
    lifecycle.isImplementation(owner) && owner.element.localName === 'page-consent';
  const runtime: PageRuntime = {
    version: '0.1',
    define: (tag, implementation) => lifecycle.define(tag, implementation),
    PageElement,
    storage,
    viewport: createLazyViewport(win, () => load('viewport')),
    consent: createLazyConsentApi(consentApi),
    setConsentProvider: (owner, provider) => gate.setProvider(provider, isConsentElement(owner)),
    replayConsent: (owner, lines, onMiss) => isConsentElement(owner) && gate.replay(lines, onMiss),
    // Without the arbiter's part the change is refused, as any change it cannot prove safe.
    attemptChangeSize: async (...args) => {
      const attempt = await changeSize();
      if (!attempt) throw new Error('change-size part not loaded');
      return attempt(...args);
    },
    registerAction: actions.register,
    registerMacro: macros.register,
    expandUrl: macros.expand,
    report,
    whenBuilt: (element) => lifecycle.whenBuilt(element),
    provideService: services.provide,
    whenService: services.when,
    loadPart,
    triggerAction: actions.trigger,
  };
  const lifecycle = createLifecycle({
    runtime,
    gate,
    metaBlockedTags: () => (metaBlockedTags ??= readMetaBlockedTags(doc)),
    report,
  });
  defineLazyElements(runtime, () => load('elements'));
  actions.start();
  activateScripts({
    document: doc,
    gate,
    metaBlockedTags: () => (metaBlockedTags ??= readMetaBlockedTags(doc)),
    report,
  });
  return runtime;
}
