/**
 * The consent state of one `<page-consent>`, in the state part: the controller over the page's
 * services, the runtime's consent provider over its model, and the `consent-change` event of
 * each change that readers can see.
 */
import type { ActionArguments, PageRuntime } from '../runtime/index.ts';
import { parseStoredConsent } from '../wire/consent.ts';
import { PAGE_MACROS } from '../browser-shared/url-macros.ts';
import { diagnostic, type Parsed } from '../wire/diagnostic.ts';
import { type ConsentCoreConfig, parseConsentTiming } from '../wire/consent-config.ts';
import { own } from '../wire/values.ts';
import { createConsentController } from './controller.ts';
import { decide, type PolicyInput } from './policy.ts';
import { startEventOf } from './lifetime.ts';
import type { RemoteCalls } from './remote.ts';
import { writeReturnRecord } from './return-record.ts';
import { detailOf, installConsentProvider } from './provider.ts';
import { type ConsentEvent, type ConsentModel, initialModel, reduceConsent } from './state.ts';
import type { optOut } from './opt-out.ts';
import type { ActionName } from './action-names.ts';

type Host = InstanceType<PageRuntime['PageElement']>;

/** Boolean action arguments (own names only); any other value is reported and skipped. */
function booleans(args: ActionArguments, report: Host['report']): Record<string, boolean> {
  const entries = Object.entries(args).filter(([name, value]) => {
    if (typeof value !== 'boolean') report(diagnostic('consent-action-argument', `${name}=true|false`, value));
    return typeof value === 'boolean';
  });
  return Object.fromEntries(entries) as Record<string, boolean>;
}

/** The reducer event of an action; the reducer ignores it until a prompt is shown. */
export function eventOf(
  name: Exclude<ActionName, 'optOut'>,
  args: ActionArguments,
  report: Host['report'],
): ConsentEvent {
  if (name === 'dismiss') return { type: 'decide', decision: 'dismissed' };
  if (name === 'prompt') return { type: 'prompt' };
  const purposes = booleans(args, report);
  if (name === 'setPurpose') return { type: 'set-purposes', purposes };
  return {
    type: 'decide',
    decision: name === 'accept' ? 'accepted' : 'rejected',
    purposeConsentDefault: own(purposes, 'purposeConsentDefault'),
  };
}

/** The parts of the consent script the state loads (their exports; src/consent/parts.ts names them all). */
type StateParts = {
  remote: RemoteCalls;
  'opt-out': { optOut: typeof optOut };
};

export type ConsentStateOptions = {
  /** Loads a part of the consent script (reported by the loader when it fails). */
  readonly load: <K extends keyof StateParts>(name: K) => Promise<StateParts[K] | undefined>;
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
  /** The localStorage item of this config's return record (`returnKeyOf`, the core's: it holds the release). */
  readonly returnItem: string;
  /** The consent core's parse of the element's config under some geo groups (its preset merged; no timing). */
  readonly parse: (geoGroups: string[]) => Parsed<ConsentCoreConfig | null>;
};

export function createConsentState(
  host: Host,
  { load, report, checked, view, onModel, isCovered, whenIdle, returnItem, parse }: ConsentStateOptions,
) {
  const page = host.runtime;
  let lastDetail = '';
  // The return record (docs/decisions/consent-return-record.md) is written at idle: for a decision
  // saved on this page, for a stored one no entry covered, and once the page asked the gate about
  // a request the entry did not know. Its writer is in this part, not one of its own: a first
  // visit would add a script for it right after the reader's choice.
  let isWriting = false;
  const record = () => {
    if (isWriting) return;
    isWriting = true;
    // The stored decision's parser and the other rules are the core's and this part's.
    whenIdle().then(() => {
      isWriting = false;
      const parseConfig = (geoGroups: string[]) => {
        const core = host.element.id ? parse(geoGroups).value : null;
        return core && { ...core, ...parseConsentTiming(core).value };
      };
      const parseStored = (value: unknown, now: number) => parseStoredConsent(value, now).value;
      writeReturnRecord(page.storage, host.element, returnItem, {
        parseConfig,
        parseStored,
        reduceConsent,
        initialModel,
        startEventOf,
        decide,
      });
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
    parseStoredConsent,
    onChange(model) {
      if (model.saved && model.saved !== covered) {
        if (covered !== undefined || !isCovered()) record();
        covered = model.saved;
      }
      onModel(model);
      notify();
      const detail = detailOf(model);
      // The hook of an honoured GPC signal (docs/consent.md, "Global Privacy Control"), set before the event.
      host.element.classList.toggle('page-consent-gpc-honored', !!detail.gpcHonored);
      if (lastDetail !== (lastDetail = JSON.stringify(detail))) host.dispatch('consent-change', detail);
    },
  });
  const [provider, notify] = installConsentProvider(
    page,
    host,
    () => ({ ...controller.model(), ...view() }),
    checked,
    controller.receipt,
  );
  const act = (name: ActionName, args: ActionArguments) =>
    // `consent.optOut` is in a part of its own, loaded at its first use (docs/us-privacy.md).
    name === 'optOut'
      ? void load('opt-out').then((part) => part?.optOut(page, controller, args, report))
      : controller.dispatch(eventOf(name, args, report));
  return { controller, provider, act };
}
