/**
 * The vendors' view of a journey (docs/validator.md, "The vendors' view"): at its end the audit
 * asks the page's `__tcfapi('getTCData')`, `__gpp('ping')` and `__uspapi('getUSPData')`, each
 * with a time-out, as a vendor's tag would. The answers come from the page's world, so they
 * arrive as one bounded JSON text, are parsed field by field, and each string passes the wire
 * layer's bounds check before the IAB's decoders (`@iabtechlabtcf/core`, `@iabgpp/cmpapi`) see
 * it. `signalsView` builds the report's view, with what Prebid's rules would allow
 * (prebid-rules.ts); `judgeSignals` (signal-findings.ts) judges it.
 */
import { GppModel } from '@iabgpp/cmpapi';
import { Base64Url, SegmentIDs, TCString } from '@iabtechlabtcf/core';
import type { Page } from 'playwright-core';
import { checkGppString, checkTcString } from '../../src/wire/consent-string-bounds.ts';
import { isRecord, own, parseJsonText } from '../../src/wire/values.ts';
import { prebidRows } from './prebid-rules.ts';
import type { PageRecord } from './recorder-script.ts';
import type { ApiRead, GppView, SignalsView, TcView, UspView } from './report.ts';

/** How long each API may take to answer. */
export const API_TIMEOUT_MS = 1_000;
/** The answers' JSON text is read up to this many characters (a TC string is at most 8,192). */
const MAX_ANSWER_CHARS = 262_144;
const MAX_TEXT = 8_192;
/** The most fields of one GPP section and the longest value kept in the report. */
const MAX_FIELDS = 64;

type Answer = { readonly status: 'none' | 'no-answer' | 'threw' | 'answer'; readonly value?: unknown };
type Answers = { readonly tcf: Answer; readonly gpp: Answer; readonly usp: Answer };

/**
 * Runs in the page: calls the three APIs at once and returns their answers as one JSON text.
 * Plain JavaScript in a string, as the recorder is: a function would be serialised as the
 * TypeScript loader rewrote it, with helpers the page does not have.
 */
const ASK_APIS = `(timeoutMs) => {
  const call = (name, invoke) =>
    new Promise((resolve) => {
      const api = Reflect.get(globalThis, name);
      if (typeof api !== 'function') return resolve({ status: 'none' });
      const timer = setTimeout(() => resolve({ status: 'no-answer' }), timeoutMs);
      try {
        invoke(api, (value) => {
          clearTimeout(timer);
          resolve({ status: 'answer', value });
        });
      } catch {
        clearTimeout(timer);
        resolve({ status: 'threw' });
      }
    });
  return Promise.all([
    call('__tcfapi', (api, done) => api('getTCData', 2, (value) => done(value))),
    call('__gpp', (api, done) => api('ping', (value) => done(value))),
    call('__uspapi', (api, done) => api('getUSPData', 1, (value) => done(value))),
  ]).then(([tcf, gpp, usp]) => {
    try {
      return JSON.stringify({ tcf, gpp, usp });
    } catch {
      return '';
    }
  });
}`;

/** The page could not be asked (it crashed, closed or broke the call): read as an unreadable answer. */
const FAILED: Answers = { tcf: { status: 'threw' }, gpp: { status: 'threw' }, usp: { status: 'threw' } };
const STATUSES: readonly Answer['status'][] = ['none', 'no-answer', 'threw', 'answer'];

function answerOf(value: unknown): Answer {
  if (!isRecord(value)) return { status: 'threw' };
  const status = STATUSES.find((candidate) => candidate === own(value, 'status'));
  return status ? { status, value: own(value, 'value') } : { status: 'threw' };
}

/** Parses the page's JSON text; anything else than the expected shape is read as unreadable answers. */
export function parseAnswers(text: unknown): Answers {
  if (typeof text !== 'string' || text.length > MAX_ANSWER_CHARS) return FAILED;
  const value = parseJsonText(text);
  if (!isRecord(value)) return FAILED;
  return { tcf: answerOf(own(value, 'tcf')), gpp: answerOf(own(value, 'gpp')), usp: answerOf(own(value, 'usp')) };
}

/** Asks the page; a page that hangs or throws gives no answers. */
export async function askPage(page: Page, timeoutMs = API_TIMEOUT_MS): Promise<Answers> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(''), timeoutMs * 2 + 1_000);
  });
  try {
    const ask = page.evaluate(`(${ASK_APIS})(${Math.round(timeoutMs)})`) as Promise<unknown>;
    return parseAnswers(await Promise.race([ask, late]));
  } catch {
    return FAILED;
  } finally {
    clearTimeout(timer);
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length <= MAX_TEXT ? value : null);
const unread = <T>(status: ApiRead<T>['status'], detail: string | null): ApiRead<T> => ({
  status,
  detail,
  value: null,
});

function notAnswered<T>(answer: Answer): ApiRead<T> | null {
  if (answer.status === 'none') return unread('none', null);
  if (answer.status === 'no-answer') return unread('no-answer', `no answer within ${API_TIMEOUT_MS} ms`);
  if (answer.status === 'threw') return unread('unreadable', 'the call threw, or its answer could not be read');
  // An API with no string yet answers null (`__uspapi`) or nothing: read, with no string.
  if (answer.value === null || answer.value === undefined) return unread('read', 'answered without a string');
  return isRecord(answer.value) ? null : unread('unreadable', 'the answer is not an object');
}

const idsOf = (vector: { forEach(callback: (value: boolean, id: number) => void): void }): number[] => {
  const ids: number[] = [];
  vector.forEach((value, id) => {
    if (value) ids.push(id);
  });
  return ids;
};

/** The segments a TC string carries after its core segment, by the segment type of each. */
function segmentsOf(tcString: string): string[] {
  return tcString
    .split('.')
    .slice(1)
    .map((segment) => {
      try {
        return SegmentIDs.ID_TO_KEY[Number.parseInt(Base64Url.decode(segment).slice(0, 3), 2)] ?? 'unknown';
      } catch {
        return 'unknown';
      }
    });
}

/** Decodes a TC string (already bounds-checked) into the report's view. */
export function decodeTc(tcString: string, tcData: Readonly<Record<string, unknown>>): TcView {
  const model = TCString.decode(tcString);
  const restrictions = model.publisherRestrictions.getRestrictions().map((restriction) => ({
    purpose: restriction.purposeId ?? 0,
    type: restriction.restrictionType,
    vendors: model.publisherRestrictions.getVendors(restriction),
  }));
  const gdprApplies = own(tcData, 'gdprApplies');
  return {
    tcString,
    gdprApplies: typeof gdprApplies === 'boolean' ? gdprApplies : null,
    eventStatus: text(own(tcData, 'eventStatus')),
    cmpId: Number(model.cmpId),
    cmpVersion: Number(model.cmpVersion),
    policyVersion: Number(model.policyVersion),
    version: Number(model.version),
    isServiceSpecific: model.isServiceSpecific,
    purposeConsents: idsOf(model.purposeConsents),
    purposeLegitimateInterests: idsOf(model.purposeLegitimateInterests),
    specialFeatureOptins: idsOf(model.specialFeatureOptins),
    vendorConsents: idsOf(model.vendorConsents),
    vendorLegitimateInterests: idsOf(model.vendorLegitimateInterests),
    disclosedVendors: segmentsOf(tcString).includes('vendorsDisclosed') ? idsOf(model.vendorsDisclosed) : null,
    publisherRestrictions: restrictions,
    addtlConsent: text(own(tcData, 'addtlConsent')),
  };
}

export function readTc(answer: Answer): ApiRead<TcView> {
  const early = notAnswered<TcView>(answer);
  if (early) return early;
  const tcData = answer.value as Readonly<Record<string, unknown>>;
  const tcString = own(tcData, 'tcString');
  // Before a decision a CMP may have no string yet (an empty or absent tcString): read, with none.
  if (tcString === undefined || tcString === '')
    return unread(
      'read',
      `no TC string (gdprApplies ${String(own(tcData, 'gdprApplies'))}, eventStatus ${String(text(own(tcData, 'eventStatus')))})`,
    );
  if (typeof tcString !== 'string') return unread('unreadable', 'tcString is not a string');
  const refused = checkTcString(tcString);
  if (refused) return unread('unreadable', `${refused.expected}, got ${refused.got}`);
  try {
    return { status: 'read', detail: null, value: decodeTc(tcString, tcData) };
  } catch (error) {
    return unread('unreadable', `the TC string does not decode: ${error instanceof Error ? error.message : 'error'}`);
  }
}

/** A GPP field value as JSON data: numbers, booleans, short strings, and lists of them. */
function fieldValue(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.slice(0, 256);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.slice(0, 64).map((item) => fieldValue(item));
  return null;
}

export function decodeGpp(gppString: string, applicableSections: readonly number[]): GppView {
  const model = new GppModel(gppString);
  const decoded = model.toObject() as Record<string, unknown>;
  const ids = model.getSectionIds() as number[];
  const names = Object.keys(decoded);
  const sections = names.slice(0, 16).map((name, index) => {
    const fields = decoded[name];
    const entries = isRecord(fields) ? Object.entries(fields).slice(0, MAX_FIELDS) : [];
    return {
      id: ids[index] ?? 0,
      name,
      fields: Object.fromEntries(entries.map(([key, value]) => [key, fieldValue(value)])),
    };
  });
  return { gppString, applicableSections, sections };
}

export function readGpp(answer: Answer): ApiRead<GppView> {
  const early = notAnswered<GppView>(answer);
  if (early) return early;
  const ping = answer.value as Readonly<Record<string, unknown>>;
  const gppString = own(ping, 'gppString');
  const applicable = own(ping, 'applicableSections');
  const applicableSections = Array.isArray(applicable)
    ? applicable.filter((id): id is number => Number.isInteger(id)).slice(0, 32)
    : [];
  if (typeof gppString !== 'string' || gppString === '')
    return unread(
      'unreadable',
      `no gppString in the ping answer (signalStatus ${String(text(own(ping, 'signalStatus')))})`,
    );
  const refused = checkGppString(gppString);
  if (refused) return unread('unreadable', `${refused.expected}, got ${refused.got}`);
  try {
    return { status: 'read', detail: null, value: decodeGpp(gppString, applicableSections) };
  } catch (error) {
    return unread('unreadable', `the GPP string does not decode: ${error instanceof Error ? error.message : 'error'}`);
  }
}

/** The US privacy string: a version digit, then notice, opt-out of sale and LSPA, each `Y`, `N` or `-`. */
export function decodeUsp(uspString: string): UspView | null {
  const match = /^([1-9])([YN-])([YN-])([YN-])$/.exec(uspString);
  if (!match) return null;
  const [, version, notice, optOutSale, lspa] = match;
  return { uspString, version: Number(version), notice: notice!, optOutSale: optOutSale!, lspa: lspa! };
}

export function readUsp(answer: Answer): ApiRead<UspView> {
  const early = notAnswered<UspView>(answer);
  if (early) return early;
  const uspString = text(own(answer.value as Readonly<Record<string, unknown>>, 'uspString'));
  const view = uspString === null ? null : decodeUsp(uspString);
  return view
    ? { status: 'read', detail: null, value: view }
    : unread('unreadable', 'no valid uspString in the answer');
}

/** The first `tcf-answer` record with this key (the recorder reports each key once per page). */
const firstAnswer = (records: readonly PageRecord[], key: string) =>
  records.find((record) => record.kind === 'tcf-answer' && record.key === key && record.since !== undefined);

/** When `__tcfapi` first answered and first reported a loaded string, in ms after the page's response started to arrive, and as epoch ms. */
export function tcfTimes(records: readonly PageRecord[]): {
  readonly firstAnswerMs: number | null;
  readonly loadedMs: number | null;
  readonly loadedAt: number | null;
} {
  const ping = firstAnswer(records, 'ping');
  const loaded = firstAnswer(records, 'event:tcloaded') ?? firstAnswer(records, 'event:useractioncomplete');
  const round = (value: number | undefined) => (value === undefined ? null : Math.round(value));
  return { firstAnswerMs: round(ping?.since), loadedMs: round(loaded?.since), loadedAt: loaded?.time ?? null };
}

export function signalsView(answers: Answers, records: readonly PageRecord[]): SignalsView {
  const tcf = readTc(answers.tcf);
  const gpp = readGpp(answers.gpp);
  const usp = readUsp(answers.usp);
  const times = tcfTimes(records);
  return {
    tcfFirstAnswerMs: times.firstAnswerMs,
    tcLoadedMs: times.loadedMs,
    tcf,
    gpp,
    usp,
    prebid: prebidRows(tcf.value, gpp.value),
  };
}
