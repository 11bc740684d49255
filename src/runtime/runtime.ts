/**
 * Assembles the runtime services into the `PageRuntime` object that extensions receive.
 * Safe to import: nothing runs until `createRuntime` is called.
 */
import { createActions } from './actions.ts';
import { createChangeSize } from './change-size.ts';
import { createConsentGate, readMetaBlockedTags } from './consent-gate.ts';
import { report } from './diagnostics.ts';
import { PageElement } from './element.ts';
import { createLifecycle } from './lifecycle.ts';
import { createMacros } from './macros.ts';
import { createServices } from './services.ts';
import { createStorage } from './storage.ts';
import { activateScripts } from './text-plain-scripts.ts';
import type { PageRuntime } from './types.ts';
import { browserPlatform, createViewport } from './viewport.ts';
import { registerConsentMacros } from './consent-macros.ts';

export function createRuntime(win: Window & typeof globalThis): PageRuntime {
  const doc = win.document;
  const gate = createConsentGate(doc, (d) => report('page-consent', d));
  const storage = createStorage({ window: win, hostname: win.location.hostname, report });
  const actions = createActions({ document: doc, report, whenBuilt: (element) => lifecycle.whenBuilt(element) });
  const macros = createMacros({ window: win, document: doc, storage });
  const platform = browserPlatform(win);
  const viewport = createViewport({ platform, report });
  const attemptChangeSize = createChangeSize({
    viewport,
    platform,
    isDocumentHidden: () => doc.hidden,
    lastInteraction: actions.lastInteraction,
    now: () => Date.now(),
  });
  let metaBlockedTags: Set<string> | null = null;
  const services = createServices();
  const runtime: PageRuntime = {
    version: '0.1',
    define: (tag, implementation) => lifecycle.define(tag, implementation),
    PageElement,
    storage,
    viewport,
    consent: gate.api,
    setConsentProvider: (owner, provider) => gate.setProvider(provider, lifecycle.isImplementation(owner) && owner.element.localName === 'page-consent'),
    attemptChangeSize,
    registerAction: actions.register,
    registerMacro: macros.register,
    expandUrl: macros.expand,
    report,
    whenBuilt: (element) => lifecycle.whenBuilt(element),
    provideService: services.provide,
    whenService: services.when,
    triggerAction: actions.trigger,
  };
  const lifecycle = createLifecycle({
    runtime,
    gate,
    metaBlockedTags: () => (metaBlockedTags ??= readMetaBlockedTags(doc)),
    report,
  });
  registerConsentMacros(macros.register, gate.snapshot);
  actions.start();
  activateScripts({ document: doc, gate, metaBlockedTags: () => (metaBlockedTags ??= readMetaBlockedTags(doc)), report });
  return runtime;
}
