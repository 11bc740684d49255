/**
 * A journey's record turned into the report's events, each judged (verdict.ts) and each with
 * its initiator: requests (beacons are requests of type Ping), cookies by response header or by
 * script, storage writes by script, and our elements and blocked scripts that were built or ran.
 * The `Set-Cookie` lines the browser refused are listed apart, with its reasons, unjudged.
 */
import { cookieNameOf, resolveCookie } from './cookies.ts';
import { requestChain, stackUrls, writerChain } from './initiators.ts';
import type { JourneyRecord } from './journey.ts';
import type { LoggedRequest } from './network-log.ts';
import { endpointOf, isExpected, type PageExpectations } from './page-config.ts';
import type { PageRecord } from './recorder-script.ts';
import type { BuiltEvent, CookieEvent, Phase, RefusedCookie, RequestEvent, StorageEvent } from './report.ts';
import { allowedBy, hostOf, isThirdParty, siteOfCookieDomain } from './sites.ts';
import { describeInitiator, type TagContext } from './tags.ts';
import { RUNS_AFTER_REJECT, verdictOf } from './verdict.ts';

export type EventContext = {
  readonly record: JourneyRecord;
  readonly expectations: PageExpectations;
  readonly site: string;
  readonly allow: readonly string[];
  readonly tags: TagContext;
  /** Origin + path of the elements and scripts that ran after a reject under a policy that lets them. */
  readonly permitted: ReadonlySet<string>;
};

export function timing(context: EventContext, time: number): { t: number; phase: Phase; page: string } {
  const { record } = context;
  const phase: Phase = record.name === 'no-decision' || time < record.decisionAt ? 'before' : 'after';
  const page = record.visits.findLast((visit) => visit.time <= time)?.url ?? record.visits[0]?.url ?? '';
  return { t: Math.round(time - record.decisionAt), phase, page };
}

const isWeb = (url: string) => /^(https?|file):/i.test(url);
const expectedChain = (chain: readonly string[], expectations: PageExpectations) =>
  chain.some((url) => expectations.endpoints.includes(endpointOf(url) ?? ''));

function facts(
  context: EventContext,
  phase: Phase,
  isThird: boolean,
  subject: string | null,
  chain: readonly string[],
) {
  const urls = subject === null ? chain : [subject, ...chain];
  return {
    journey: context.record.name,
    phase,
    isThirdParty: isThird,
    isExpected:
      (urls[0] !== undefined && isExpected(urls[0], context.expectations)) ||
      expectedChain(chain, context.expectations),
    allowedBy: allowedBy(subject ?? chain[0] ?? '', context.allow),
    isPermittedAfterReject: urls.some((url) => context.permitted.has(endpointOf(url) ?? '')),
  };
}

/** Each web request's event, keyed by the logged request (cookies by header refer to it). */
export function requestEvents(context: EventContext): Map<LoggedRequest, RequestEvent> {
  const events = new Map<LoggedRequest, RequestEvent>();
  for (const request of context.record.requests.filter((entry) => isWeb(entry.url))) {
    const time = timing(context, request.time);
    const chain = requestChain(request, context.record.requests);
    const isThird = isThirdParty(request.url, context.site);
    const initiator = describeInitiator(chain, request.url, request.initiator.type === 'script', context.tags);
    const verdict = verdictOf(facts(context, time.phase, isThird, request.url, chain));
    events.set(request, {
      ...time,
      url: request.url,
      method: request.method,
      type: request.type,
      party: isThird ? 'third' : 'first',
      isBeacon: request.type === 'Ping',
      initiator,
      verdict,
    });
  }
  return events;
}

export function cookieEvents(context: EventContext, requests: ReadonlyMap<LoggedRequest, RequestEvent>): CookieEvent[] {
  const { record } = context;
  const jarAt = (time: number) => (time < record.decisionAt ? record.jarAtDecision : record.jarAtEnd);
  const byHeader = record.requests.flatMap((request) =>
    request.setCookies.map((line) => ({
      line,
      host: hostOf(request.url),
      time: request.responseTime ?? request.time,
      event: requests.get(request),
      source: request.url,
    })),
  );
  const events: CookieEvent[] = [];
  for (const { line, host, time, event, source } of byHeader) {
    const cookie = resolveCookie(line, host, jarAt(time), time);
    if (!cookie || cookie.isDeletion || !event) continue;
    const isThird = (siteOfCookieDomain(cookie.domain) ?? context.site) !== context.site;
    const verdict =
      event.verdict === 'expected' || event.verdict === 'allowed'
        ? event.verdict
        : verdictOf({
            ...facts(
              context,
              timing(context, time).phase,
              isThird && cookie.isPersistent,
              source,
              event.initiator.chain,
            ),
            isPermittedAfterReject: false,
          });
    events.push({
      ...timing(context, time),
      ...cookie,
      party: isThird ? 'third' : 'first',
      setBy: 'header',
      source,
      initiator: event.initiator,
      verdict,
    });
  }
  for (const write of record.records.filter((entry) => entry.kind === 'cookie')) {
    const cookie = resolveCookie(write.key, hostOf(write.frameUrl), jarAt(write.time), write.time);
    if (!cookie || cookie.isDeletion) continue;
    const writer = stackUrls(write.stack ?? '')[0] ?? null;
    const chain = writer ? writerChain(writer, record.requests) : [];
    const isThird = (siteOfCookieDomain(cookie.domain) ?? context.site) !== context.site;
    const isLeak = (isThird && cookie.isPersistent) || (writer !== null && isThirdParty(writer, context.site));
    const time = timing(context, write.time);
    const verdict = verdictOf({ ...facts(context, time.phase, isLeak, null, chain), isPermittedAfterReject: false });
    const initiator = describeInitiator(chain, null, true, context.tags);
    events.push({
      ...time,
      ...cookie,
      party: isThird ? 'third' : 'first',
      setBy: 'script',
      source: writer ?? write.frameUrl,
      initiator,
      verdict,
    });
  }
  return events.sort((a, b) => a.t - b.t);
}

/** The lines the browser refused, each with the request that carried it and who caused that request. */
export function refusedCookies(
  context: EventContext,
  requests: ReadonlyMap<LoggedRequest, RequestEvent>,
): RefusedCookie[] {
  return context.record.requests.flatMap((request) => {
    const event = requests.get(request);
    if (!event) return [];
    const time = timing(context, request.responseTime ?? request.time);
    return request.refusedCookies.map(({ line, reasons }) => ({
      ...time,
      name: cookieNameOf(line),
      line,
      reasons,
      source: request.url,
      initiator: event.initiator,
    }));
  });
}

const OUR_KEY = (origin: string) => `page-store:${hostOf(origin)}`;

export function storageEvents(context: EventContext): StorageEvent[] {
  const writes = context.record.records.filter((entry): entry is PageRecord & { kind: StorageEvent['kind'] } =>
    ['localStorage', 'sessionStorage', 'indexedDB'].includes(entry.kind),
  );
  return writes.map((write) => {
    const origin = originOf(write.frameUrl);
    const writer = stackUrls(write.stack ?? '')[0] ?? null;
    const chain = writer ? writerChain(writer, context.record.requests) : [];
    const isThird = writer === null ? isThirdParty(write.frameUrl, context.site) : isThirdParty(writer, context.site);
    const time = timing(context, write.time);
    const isOurs =
      write.kind === 'localStorage' && write.key === OUR_KEY(origin) && !isThirdParty(write.frameUrl, context.site);
    const judged = facts(context, time.phase, isThird, null, chain);
    const verdict = verdictOf({ ...judged, isExpected: judged.isExpected || isOurs, isPermittedAfterReject: false });
    return {
      ...time,
      kind: write.kind,
      key: write.key,
      origin,
      writer,
      party: isThird ? 'third' : 'first',
      initiator: describeInitiator(chain, null, true, context.tags),
      verdict,
    };
  });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function builtEvents(context: EventContext): BuiltEvent[] {
  return context.record.records
    .filter((entry) => entry.kind === 'built' || entry.kind === 'script-run')
    .map((entry) => ({
      t: timing(context, entry.time).t,
      phase: timing(context, entry.time).phase,
      kind: entry.kind === 'built' ? 'element' : 'script',
      tag: entry.kind === 'built' ? entry.key : 'script',
      block: entry.block ?? null,
      purposes: entry.purposes ?? null,
      src: entry.src ?? null,
    }));
}

/** The sources of what ran after a reject under `_till_responded` or `_auto_reject`. */
export function permittedSources(record: JourneyRecord, base: string): Set<string> {
  if (record.name !== 'reject') return new Set();
  const runs = record.records.filter(
    (entry) =>
      (entry.kind === 'built' || entry.kind === 'script-run') &&
      entry.time >= record.decisionAt &&
      RUNS_AFTER_REJECT.has(entry.block ?? ''),
  );
  return new Set(runs.flatMap((entry) => (entry.src ? [endpointOf(entry.src, base) ?? ''] : [])));
}
