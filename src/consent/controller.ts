/**
 * Consent orchestration without the DOM: runs the reducer, caches decisions, tells
 * `onUpdateHref` about each change, runs the policy timeout and the remote check. Storage,
 * network, clock and URL expansion are injected, so every rule is unit-tested with fake timers.
 */
import type { Diagnostic, DiagnosticLevel, StorageService } from '../runtime/index.ts';
import type { parseStoredConsent, StoredConsent } from '../wire/consent.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import type { Network, RemoteCalls } from './remote.ts';
import { startEventOf } from './lifetime.ts';
import {
  type ConsentEvent,
  type ConsentModel,
  type ConsentReducer,
  initialModel,
  reduceConsent,
  type SavedDecision,
} from './state.ts';

export type ControllerDeps = Network & {
  readonly storage: Pick<StorageService, 'get' | 'set' | 'remove'>;
  readonly expandUrl: (template: string) => Promise<string>;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
  /** A new random id (`pageUserId`). */
  readonly newId: () => string;
  /** Called after every event, with the model it produced. */
  readonly onChange: (model: ConsentModel) => void;
  /** The time of a decision, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** The check and update calls (src/consent/remote.ts; the remote part in the page); undefined when they failed to load. */
  readonly remote: () => Promise<RemoteCalls | undefined>;
  /** The cached decision's parser (src/wire/consent.ts; in the state part, beside the controller). */
  readonly parseStoredConsent: typeof parseStoredConsent;
};

export type ConsentController = {
  readonly model: () => ConsentModel;
  readonly dispatch: (event: ConsentEvent) => void;
  /**
   * Starts from the cache, then checks with the server; resolves once the check is over.
   * `hasGpc`: the browser sends Global Privacy Control (applied with `"gpc": "reject"`).
   */
  readonly start: (config: ConsentConfig | null, matchedGeoGroup: string | null, hasGpc?: boolean) => Promise<void>;
  /** The latest receipt id from onUpdateHref (docs/server.md, "Proving consent"), once the update in flight is answered. */
  readonly receipt: () => Promise<string | null>;
  /** Wraps the reducer with a part's own events and fields (src/consent/tc-string-state.ts). */
  readonly extend: (wrap: (reduce: ConsentReducer) => ConsentReducer) => void;
};

export const USER_ID_KEY = 'consent-user';

/** The storage key of an instance's cached decision. */
export const decisionKeyOf = (consentInstanceId: string) => `consent:${consentInstanceId}`;

const fieldsOf = (d: SavedDecision | null) =>
  d && [d.state, d.consentString, d.purposeConsents, d.consentMetadata, d.tcfPolicyVersion];

/** Whether two decisions differ in more than their time (and field order). */
const isSameDecision = (a: SavedDecision | null, b: SavedDecision | null) =>
  JSON.stringify(fieldsOf(a)) === JSON.stringify(fieldsOf(b));

export function createConsentController(deps: ControllerDeps): ConsentController {
  let model = initialModel;
  let config: ConsentConfig | null = null;
  let written: SavedDecision | null = null;
  let updated: Promise<unknown> = Promise.resolve();
  let held: StoredConsent | null = null;
  let reduce = reduceConsent;
  const now = deps.now ?? Date.now;
  const keyOf = ({ consentInstanceId }: ConsentConfig) => decisionKeyOf(consentInstanceId);
  const receiptKeyOf = ({ consentInstanceId }: ConsentConfig) => `consent-receipt:${consentInstanceId}`;

  /** The user's `pageUserId`, created once and kept in storage. */
  const pageUserId = () => {
    const stored = deps.storage.get(USER_ID_KEY);
    if (typeof stored === 'string' && stored) return stored;
    const id = deps.newId();
    deps.storage.set(USER_ID_KEY, id);
    return id;
  };

  /** Tells onUpdateHref about `stored`; a decision waiting for its TC string is told once the string is there (or failed). */
  const notify = (current: ConsentConfig, stored: StoredConsent | null) => {
    const { consentInstanceId, onUpdateHref } = current;
    if (!onUpdateHref || !stored || model.isStringPending) return void (held = stored);
    held = null;
    const update = { consentInstanceId, pageUserId: pageUserId() };
    const receiptKey = receiptKeyOf(current);
    const calls = deps.remote();
    updated = deps
      .expandUrl(onUpdateHref)
      .then(async (url) => (await calls)?.notifyUpdate(deps, url, update, stored, deps.report))
      // The receipt of the latest update, or none: an older receipt proves an older decision.
      .then((receiptId) => (receiptId ? deps.storage.set(receiptKey, receiptId) : deps.storage.remove(receiptKey)));
  };

  /**
   * Caches a changed decision with its time (once) and tells onUpdateHref; a confirmed one only
   * gets a new time; a string added later keeps the decision's time.
   */
  const persist = ({ saved }: ConsentModel, current: ConsentConfig, isConfirmed: boolean) => {
    const isSame = isSameDecision(saved, written);
    if (isSame && !(saved && isConfirmed)) return held && notify(current, held);
    written =
      saved &&
      ({ ...saved, time: saved.time !== undefined && !isConfirmed ? saved.time : now() } satisfies StoredConsent);
    if (!written) return deps.storage.remove(keyOf(current));
    deps.storage.set(keyOf(current), written);
    if (!isSame) notify(current, written as StoredConsent);
  };

  const dispatch = (event: ConsentEvent) => {
    const before = model;
    model = reduce(model, event);
    const isConfirmed = model !== before && event.type === 'decide' && event.decision !== 'dismissed';
    if (config) persist(model, config, isConfirmed);
    const seconds = config?.timeoutSeconds;
    if (model.state.kind === 'unknown' && before.state.kind !== 'unknown' && seconds != null) {
      deps.clock.setTimeout(() => dispatch({ type: 'timeout' }), seconds * 1000);
    }
    deps.onChange(model);
  };

  /**
   * The cached decision; a version 1 record is rewritten as version 2, without notifying anyone.
   */
  const readStored = async (current: ConsentConfig) => {
    const raw = deps.storage.get(keyOf(current));
    if (raw == null) return null;
    const { value, diagnostics } = deps.parseStoredConsent(raw, now());
    for (const d of diagnostics) deps.report(d, 'warn');
    if (value && (raw as { version?: unknown }).version !== value.version) deps.storage.set(keyOf(current), value);
    return value;
  };

  const start = async (next: ConsentConfig | null, matchedGeoGroup: string | null, hasGpc?: boolean) => {
    if (!next) return dispatch({ type: 'invalid' });
    config = next;
    const event = startEventOf(next, await readStored(next), now(), hasGpc);
    written = event.stored;
    dispatch(event);
    const { consentInstanceId, checkConsentHref } = next;
    if (!checkConsentHref) return;
    const saved = written;
    const loading = deps.remote();
    const url = await deps.expandUrl(checkConsentHref);
    const calls = await loading;
    // Without the remote part (reported by the loader) the check failed: fail closed, as after any failure.
    const result =
      calls &&
      (await calls.checkConsent(
        deps,
        url,
        calls.checkRequestOf(consentInstanceId, saved, matchedGeoGroup, event.isGpcReject),
        next.xssiPrefix,
      ));
    for (const d of result?.diagnostics ?? []) deps.report(d, result?.value ? 'warn' : 'error');
    dispatch(result?.value ? { type: 'response', response: result.value } : { type: 'failure' });
  };

  const receipt = async () => {
    await updated;
    const id = config && deps.storage.get(receiptKeyOf(config));
    return typeof id === 'string' ? id : null;
  };

  return { model: () => model, dispatch, start, receipt, extend: (wrap) => void (reduce = wrap(reduce)) };
}
