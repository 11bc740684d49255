/**
 * One journey's report: its events judged, and a finding for each event judged a leak, with the
 * tag on the page that caused it and how to fix it. What `--allow` covers is listed apart.
 */
import {
  builtEvents,
  cookieEvents,
  type EventContext,
  permittedSources,
  refusedCookies,
  requestEvents,
  storageEvents,
} from './events.ts';
import { hintFor } from './hints.ts';
import type { JourneyRecord } from './journey.ts';
import { endpointOf } from './page-config.ts';
import type { AllowedItem, AuditFinding, BuiltEvent, Initiator, JourneyReport, Phase, Subject } from './report.ts';
import { judgePrompt } from './prompt-findings.ts';
import { judgeSignals } from './signal-findings.ts';
import { allowedBy } from './sites.ts';
import { judgeVendorTags } from './vendor-findings.ts';
import type { VendorHostTable } from './vendor-hosts.ts';

type LeakSubject = Exclude<Subject, 'prompt' | 'signal'>;
type Judged = {
  subject: LeakSubject;
  page: string;
  what: string;
  source: string;
  phase: Phase;
  t: number;
  verdict: string;
  initiator: Initiator;
  detail: string;
};

const CODES: Record<LeakSubject, string> = {
  request: 'audit-third-party-request',
  cookie: 'audit-third-party-cookie',
  storage: 'audit-third-party-storage',
};
const EXPECTED: Record<LeakSubject, string> = {
  request: 'no third-party request',
  cookie: 'no persistent third-party cookie and no cookie written by a third-party script',
  storage: 'no storage write by a third-party script',
};

function findingOf(item: Judged, built: readonly BuiltEvent[]): AuditFinding {
  const when = item.phase === 'before' ? 'before the decision' : 'after a reject';
  // Only an http(s) address names a built element's source: a file: page's own URL matches none.
  const tagEndpoint = endpointOf(item.initiator.tag.url ?? '');
  const builtTag =
    tagEndpoint === null
      ? null
      : (built.find(
          (entry) => entry.src !== null && endpointOf(entry.src, item.initiator.tag.url ?? undefined) === tagEndpoint,
        )?.tag ?? null);
  return {
    code: CODES[item.subject],
    subject: item.subject,
    phase: item.phase,
    t: item.t,
    what: item.what,
    message: `expected ${EXPECTED[item.subject]} ${when}, got ${item.detail}`,
    initiator: item.initiator,
    hint: hintFor(item.initiator, item.phase, builtTag),
    page: item.page,
  };
}

export type JudgeSettings = {
  readonly site: string;
  readonly allow: readonly string[];
  /** Hosts of TCF vendors (vendor-hosts.ts); the built-in table when absent. */
  readonly vendorHosts?: VendorHostTable;
};

export function judgeJourney(record: JourneyRecord, settings: JudgeSettings): JourneyReport {
  const { site, allow } = settings;
  const base = {
    name: record.name,
    decidedBy: record.decidedBy,
    decisionAt: new Date(record.decisionAt).toISOString(),
    pages: record.visits.map(({ url }) => url),
  };
  const blocked = record.blocked.map(({ url, reason }) => ({ url, reason }));
  const empty = {
    findings: [],
    allowed: [],
    requests: [],
    cookies: [],
    refusedCookies: [],
    storage: [],
    built: [],
    blocked,
  };
  // A journey that could not be run reports why, and nothing else: the no-decision journey has the rest.
  if (!record.expectations || record.notRun) return { ...base, ...empty, status: 'not-run', reason: record.notRun };
  const pageUrl = record.visits[0]?.url ?? '';
  const topDocuments = record.requests
    .filter((request) => request.type === 'Document' && request.initiator.type === 'other')
    .map(({ url }) => url);
  const builtSources = record.records.flatMap((entry) =>
    entry.kind === 'built' && entry.src ? (endpointOf(entry.src, entry.frameUrl) ?? []) : [],
  );
  const context: EventContext = {
    record,
    expectations: record.expectations,
    site,
    allow,
    tags: {
      requests: record.requests,
      pages: new Set([...topDocuments, ...base.pages]),
      builtSources: new Set(builtSources),
    },
    permitted: permittedSources(record, pageUrl),
  };
  const byRequest = requestEvents(context);
  const requests = [...byRequest.values()];
  const cookies = cookieEvents(context, byRequest);
  const refused = refusedCookies(context, byRequest);
  const storage = storageEvents(context);
  const built = builtEvents(context);
  const judged: Judged[] = [
    ...requests.map((event) => ({
      ...event,
      subject: 'request' as const,
      what: event.url,
      source: event.url,
      detail: `${event.method} ${event.url} (${event.type})`,
    })),
    ...cookies.map((event) => ({
      ...event,
      subject: 'cookie' as const,
      what: `${event.name} (${event.domain})`,
      source: event.source,
      detail: `${event.name} on ${event.domain}, ${event.isPersistent ? `persistent until ${event.expires}` : 'session'}, set by ${event.setBy} ${event.source}`,
    })),
    ...storage.map((event) => ({
      ...event,
      subject: 'storage' as const,
      what: `${event.kind} ${event.key} (${event.origin})`,
      source: event.writer ?? event.origin,
      detail: `${event.kind} "${event.key}" on ${event.origin}, written by ${event.writer ?? 'an unnamed script'}`,
    })),
  ];
  const findings = [
    ...judged.filter((item) => item.verdict === 'finding').map((item) => findingOf(item, built)),
    ...judgePrompt(record.prompt),
    ...(record.signals
      ? judgeSignals(
          record.signals,
          record.name,
          {
            navigationAt: record.visits[0]?.time ?? record.decisionAt,
            decisionAt: record.decisionAt,
            readAt: record.signalsReadAt,
            loadedAt: record.tcLoadedAt,
          },
          record.requests,
        )
      : []),
    ...judgeVendorTags(requests, record.signals?.tcf.value ?? null, record.name, settings.vendorHosts),
  ].map((finding) => (finding.page ? finding : { ...finding, page: pageUrl }));
  const allowed: AllowedItem[] = judged
    .filter((item) => item.verdict === 'allowed')
    .map((item) => ({
      allow: allowedBy(item.source, allow) ?? '',
      subject: item.subject,
      what: item.what,
      phase: item.phase,
    }));
  return {
    ...base,
    status: 'run',
    reason: null,
    findings,
    allowed,
    requests,
    cookies,
    refusedCookies: refused,
    storage,
    built,
    blocked,
    prompt: record.prompt,
    signals: record.signals,
  };
}
