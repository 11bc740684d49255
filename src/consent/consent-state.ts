/**
 * The consent state of one `<page-consent>`, in the state part: the controller over the page's
 * services, the runtime's consent provider over its model, and the `consent-change` event of
 * each change that readers can see.
 */
import type { ActionArguments, PageRuntime } from '../runtime/index.ts';
import { PAGE_MACROS } from '../browser-shared/url-macros.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { own } from '../wire/values.ts';
import { createConsentController } from './controller.ts';
import type { ConsentParts } from './parts.ts';
import type { PolicyInput } from './policy.ts';
import { detailOf, installConsentProvider } from './provider.ts';
import type { ConsentEvent, ConsentModel } from './state.ts';

type Host = InstanceType<PageRuntime['PageElement']>;

/** The element's actions (docs/consent.md, "Actions"), registered by the consent core at its build. */
export const CONSENT_ACTIONS = ['accept', 'reject', 'dismiss', 'prompt', 'setPurpose'] as const;

/** Boolean action arguments (own names only); any other value is reported and skipped. */
function booleans(args: ActionArguments, report: Host['report']): Record<string, boolean> {
  const entries = Object.entries(args).filter(([name, value]) => {
    if (typeof value !== 'boolean') report(diagnostic('consent-action-argument', `${name}=true|false`, value));
    return typeof value === 'boolean';
  });
  return Object.fromEntries(entries) as Record<string, boolean>;
}

/** The reducer event of an action; the reducer ignores it until a prompt is shown. */
export function eventOf(name: (typeof CONSENT_ACTIONS)[number], args: ActionArguments, report: Host['report']): ConsentEvent {
  if (name === 'dismiss') return { type: 'decide', decision: 'dismissed' };
  if (name === 'prompt') return { type: 'prompt' };
  const purposes = booleans(args, report);
  if (name === 'setPurpose') return { type: 'set-purposes', purposes };
  return { type: 'decide', decision: name === 'accept' ? 'accepted' : 'rejected', purposeConsentDefault: own(purposes, 'purposeConsentDefault') };
}

export type ConsentStateOptions = {
  /** Loads a part of the consent script (reported by the loader when it fails). */
  readonly load: <K extends keyof ConsentParts>(name: K) => Promise<ConsentParts[K] | undefined>;
  readonly report: Host['report'];
  /** Settles once the remote check is over (or was never needed). */
  readonly checked: Promise<void>;
  /** What the policy reads beside the model: the fallback action, whether there is a prompt. */
  readonly view: () => Omit<PolicyInput, 'state' | 'purposeConsents'>;
  /** Called with every model the controller produces, before the provider and the event. */
  readonly onModel: (model: ConsentModel) => void;
  /** Whether a return record was replayed and knew every request the gate was asked about before the provider. */
  readonly isCovered: () => boolean;
  /** Resolves in the first idle period after the page's load (src/browser-shared/idle.ts, the core's). */
  readonly whenIdle: () => Promise<void>;
};

export function createConsentState(host: Host, { load, report, checked, view, onModel, isCovered, whenIdle }: ConsentStateOptions) {
  const page = host.runtime;
  let lastDetail = '';
  // The return record (docs/decisions/consent-return-record.md) is written at idle, by its part:
  // for a decision saved on this page, for a stored one no entry covered, and once the page
  // asked the gate about a request the entry did not know.
  let isWriting = false;
  const record = () => {
    if (isWriting) return;
    isWriting = true;
    // The stored decision's parser comes too: the next page needs it in the browser's cache.
    whenIdle()
      .then(() => (load('stored'), load('record')))
      .then((part) => {
        isWriting = false;
        part?.writeReturnRecord(page.storage, host.element);
      });
  };
  // The decision the record covers (undefined until the first saved one).
  let covered: unknown;
  const controller = createConsentController({
    storage: page.storage,
    fetch: (url, init) => fetch(url, init),
    clock: self,
    expandUrl: (template) => page.expandUrl(template, PAGE_MACROS),
    report,
    newId: () => crypto.randomUUID?.() ?? `${Math.random()}`.slice(2),
    remote: () => load('remote'),
    stored: () => load('stored'),
    onChange(model) {
      if (model.saved && model.saved !== covered) {
        if (covered !== undefined || !isCovered()) record();
        covered = model.saved;
      }
      onModel(model);
      notify();
      const detail = detailOf(model);
      if (lastDetail !== (lastDetail = JSON.stringify(detail))) host.dispatch('consent-change', detail);
    },
  });
  const [provider, notify] = installConsentProvider(page, host, () => ({ ...controller.model(), ...view() }), checked, controller.receipt);
  const act = (name: (typeof CONSENT_ACTIONS)[number], args: ActionArguments) => controller.dispatch(eventOf(name, args, report));
  return { controller, provider, act };
}
