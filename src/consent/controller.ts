/**
 * Consent orchestration without the DOM: runs the reducer, caches decisions, tells
 * `onUpdateHref` about each change, runs the policy timeout and the remote check. Storage,
 * network, clock and URL expansion are injected, so every rule is unit-tested with fake timers.
 */
import type { Diagnostic, DiagnosticLevel, StorageService } from '../runtime/index.ts';
import { parseStoredConsent } from '../wire/consent.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import { checkConsent, checkRequestOf, type Network, notifyUpdate } from './remote.ts';
import { type ConsentEvent, type ConsentModel, initialModel, reduceConsent, type StoredConsent } from './state.ts';

export type ControllerDeps = Network & {
  readonly storage: Pick<StorageService, 'get' | 'set' | 'remove'>;
  readonly expandUrl: (template: string) => Promise<string>;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
  /** A new random id (`pageUserId`). */
  readonly newId: () => string;
  /** Called after every event, with the model it produced. */
  readonly onChange: (model: ConsentModel) => void;
};

export type ConsentController = {
  readonly model: () => ConsentModel;
  readonly dispatch: (event: ConsentEvent) => void;
  /** Starts from the cache, then checks with the server; resolves once the check is over. */
  readonly start: (config: ConsentConfig | null, matchedGeoGroup: string | null) => Promise<void>;
};

export const USER_ID_KEY = 'consent-user';

export function createConsentController(deps: ControllerDeps): ConsentController {
  let model = initialModel;
  let config: ConsentConfig | null = null;
  let written: StoredConsent | null = null;
  const keyOf = ({ consentInstanceId }: ConsentConfig) => `consent:${consentInstanceId}`;

  /** The user's `pageUserId`, created once and kept in storage. */
  const pageUserId = () => {
    const stored = deps.storage.get(USER_ID_KEY);
    if (typeof stored === 'string' && stored) return stored;
    const id = deps.newId();
    deps.storage.set(USER_ID_KEY, id);
    return id;
  };

  /** Caches a changed decision (once) and tells onUpdateHref. */
  const persist = ({ saved }: ConsentModel, current: ConsentConfig) => {
    if (JSON.stringify(saved) === JSON.stringify(written)) return;
    written = saved;
    if (!saved) return deps.storage.remove(keyOf(current));
    deps.storage.set(keyOf(current), saved);
    const { consentInstanceId, onUpdateHref } = current;
    if (!onUpdateHref) return;
    const update = { consentInstanceId, pageUserId: pageUserId() };
    deps.expandUrl(onUpdateHref).then((url) => notifyUpdate(deps, url, update, saved, deps.report));
  };

  const dispatch = (event: ConsentEvent) => {
    const before = model.state.kind;
    model = reduceConsent(model, event);
    if (config) persist(model, config);
    const seconds = config?.timeoutSeconds;
    if (model.state.kind === 'unknown' && before !== 'unknown' && seconds != null) {
      deps.clock.setTimeout(() => dispatch({ type: 'timeout' }), seconds * 1000);
    }
    deps.onChange(model);
  };

  const readStored = (current: ConsentConfig) => {
    const { value, diagnostics } = parseStoredConsent(deps.storage.get(keyOf(current)));
    for (const d of diagnostics) deps.report(d, 'warn');
    return value;
  };

  const start = async (next: ConsentConfig | null, matchedGeoGroup: string | null) => {
    if (!next) return dispatch({ type: 'invalid' });
    config = next;
    written = readStored(next);
    const { consentInstanceId, checkConsentHref, consentRequired, purposeConsentRequired } = next;
    dispatch({ type: 'start', stored: written, consentRequired, requiredPurposes: purposeConsentRequired });
    if (!checkConsentHref) return;
    const request = checkRequestOf(consentInstanceId, written, matchedGeoGroup);
    const result = await checkConsent(deps, await deps.expandUrl(checkConsentHref), request, next.xssiPrefix);
    for (const d of result.diagnostics) deps.report(d, result.value ? 'warn' : 'error');
    dispatch(result.value ? { type: 'response', response: result.value } : { type: 'failure' });
  };

  return { model: () => model, dispatch, start };
}
