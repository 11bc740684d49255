/**
 * The full IAB GPP v1.1 CMP API on the IAB's `@iabgpp/cmpapi`: it takes over the stub's queue;
 * `signalStatus` is `not ready` while the decision is pending, its strings are on their way or
 * the prompt shows, and `ready` once the reader (or the server, or GPC) decided; every change of
 * the string fires `sectionChange` per section. The CMP's GPP string is served as it is (and its
 * `tcfeuv2` section handed to `__tcfapi`); without one, the sections our decision gives
 * (gpp-sections.ts). Only the commands the spec defines reach the library.
 */
import { CmpApi, CmpDisplayStatus, CmpStatus, EventData, SignalStatus } from '@iabgpp/cmpapi';
import { filterQueue, guardApi, takeOverBridges } from '../consent/api-guard.ts';
import type { DiagnosticLevel } from '../runtime/index.ts';
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';
import { GPP_API } from '../consent/signal-apis.ts';
import { type ConsentSignal, type SignalSource, STRING_TYPE, type TcfFromGpp } from '../consent/signal-source.ts';
import { parseGppConfig } from '../wire/gpp-config.ts';
import { applicableSectionsOf, fillOwnSections, gppStringOf, type Place, sectionOfPlace } from './gpp-sections.ts';

/** Whether the signal is final for GPP: decided (or timed out), no prompt, no string on its way. */
const isReady = (signal: ConsentSignal) =>
  signal.isKnown &&
  !signal.isPromptShown &&
  !signal.isStringPending &&
  (signal.state !== 'unknown' || signal.hasTimedOut);

type Callback = (value: unknown, success: boolean) => void;

/**
 * Wraps the guarded API: a listener added while the API is `ready` is also sent the `signalStatus`
 * event `ready`, after its `listenerRegistered`. A vendor that pinged before the change may add
 * its listener after it (a frame's two calls are two round trips apart), and Prebid.js waits for
 * that event, not for the listener's ping data: without it, it waited out its time-out.
 */
function replayReady() {
  const scope = self as unknown as { __gpp: (command: unknown, callback: unknown, ...rest: unknown[]) => unknown };
  const inner = scope.__gpp;
  const withReplay = (listener: Callback) => (event: EventData, success: boolean) => {
    listener(event, success);
    if (event.eventName === 'listenerRegistered' && event.pingData.signalStatus === SignalStatus.READY)
      listener(new EventData('signalStatus', event.listenerId, SignalStatus.READY, event.pingData), true);
  };
  scope.__gpp = (command, callback, ...rest) =>
    inner(
      command,
      command === 'addEventListener' && typeof callback === 'function' ? withReplay(callback as Callback) : callback,
      ...rest,
    );
}

/**
 * Starts the API; returns the channel that gives the TCF part the TC string of a GPP string.
 * `place`: where `<page-geo>` placed the reader, asked only with `approach: "state"`, under which
 * the API is not ready before it is known (or given up).
 */
export function startGppApi(source: SignalSource, place: () => Promise<Place> = async () => null): TcfFromGpp {
  filterQueue(GPP_API);
  const api = new CmpApi(source.cmpId, source.cmpVersion);
  guardApi(GPP_API);
  replayReady();
  takeOverBridges(source.report);
  const tcStrings = new Map<string, string | null>();
  const listeners: (() => void)[] = [];
  const share = (gppString: string, tcString: string | null) => {
    tcStrings.set(gppString, tcString);
    for (const listener of listeners) listener();
  };
  api.setCmpStatus(CmpStatus.LOADED);
  const { value: config, diagnostics } = source.gpp ? parseGppConfig(source.gpp) : { value: null, diagnostics: [] };
  for (const d of diagnostics) source.report(d);
  // Each problem of the config is reported once, not at every decision.
  const reported = new Set<string>();
  const reportOnce = (d: Diagnostic, level?: DiagnosticLevel) => {
    const key = JSON.stringify(d);
    if (reported.has(key)) return;
    reported.add(key);
    source.report(d, level);
  };
  let where: Place | undefined = config?.approach === 'state' ? undefined : null;
  /** The CMP's GPP string, decoded by the library: its applicable sections, or null when it does not decode. */
  const decode = (gppString: string, gppSectionId: string | undefined): number[] | null => {
    try {
      api.setGppString(gppString);
      api.getObject(); // the library decodes lazily: a bad string throws here, not later
      share(gppString, api.hasSection('tcfeuv2') ? api.getSectionString('tcfeuv2') : null);
      return applicableSectionsOf(gppSectionId);
    } catch {
      source.report(diagnostic('consent-gpp-string-invalid', 'a GPP string that decodes', gppString), 'warn');
      api.clear();
      share(gppString, null);
      return null;
    }
  };
  let last = '';
  let building = '';
  /**
   * The GPP string of a decision that waits for one, where no TC string is built for it (docs/consent.md,
   * "US privacy: GPP sections"): handed back to `<page-consent>`, which stores it with the decision
   * (`consentStringType` 4, `gppSectionId`), posts it and expands `${GPP_STRING}` with it. None: no section.
   */
  const build = (signal: ConsentSignal) => {
    if (where === undefined || building === (building = signal.decisionKey)) return;
    const section = sectionOfPlace(config ?? {}, where);
    const [id] = fillOwnSections(api, signal, false, config, section, reportOnce);
    const consentMetadata = { ...signal.consentMetadata, consentStringType: STRING_TYPE.gpp, gppSectionId: `${id}` };
    const data = id! > 0 ? { consentString: api.getGppString(), consentMetadata } : null;
    // Handed back after this update, not from within the change that asked for it.
    queueMicrotask(() => source.addString(signal.decisionKey, data));
  };
  const update = (signal: ConsentSignal) => {
    if (signal.isStringPending && !(source.hasTcf && source.tcf)) build(signal);
    api.setCmpDisplayStatus(signal.isPromptShown ? CmpDisplayStatus.VISIBLE : CmpDisplayStatus.HIDDEN);
    const ready = isReady(signal) && where !== undefined;
    const gppString = gppStringOf(signal);
    const key = JSON.stringify([ready, gppString, signal.consentString, signal.state, signal.consentMetadata, where]);
    if (last === (last = key)) return;
    if (!ready) return api.setSignalStatus(SignalStatus.NOT_READY);
    api.setSignalStatus(SignalStatus.NOT_READY);
    const sections = gppString
      ? decode(gppString, signal.consentMetadata?.gppSectionId)
      : fillOwnSections(api, signal, source.hasTcf, config, sectionOfPlace(config ?? {}, where ?? null), reportOnce);
    api.setApplicableSections(sections ?? [-1]);
    const names = Object.keys(api.getObject());
    api.setSupportedAPIs(names);
    for (const name of names) api.fireSectionChange(name);
    api.setSignalStatus(SignalStatus.READY);
  };
  // A change is applied in a task of its own, never between the microtasks of a vendor's call:
  // Prebid.js asks `ping` and adds its listener a microtask later, and would miss a `ready` in between.
  let next: ConsentSignal | undefined;
  source.subscribe((signal) => {
    if (!next)
      setTimeout(() => {
        const latest = next!;
        next = undefined;
        update(latest);
      });
    next = signal;
  });
  update(source.current());
  if (where === undefined)
    place().then((found) => {
      where = found;
      update(source.current());
    });
  return { tcStringOf: (gppString) => tcStrings.get(gppString), subscribe: (listener) => listeners.push(listener) };
}
