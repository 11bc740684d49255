// autocannon loads on one route: saturation (50 connections for `duration` s) and a fixed
// overall rate of 2,000 requests/s. Bodies are valid requests of each endpoint.
import autocannon from 'autocannon';

export const BODIES = {
  '/consent/check': { consentInstanceId: 'bench', consentStateValue: 'unknown', matchedGeoGroup: null, isDirty: false },
  '/consent/update': { consentInstanceId: 'bench', pageUserId: 'bench-user', consentStateValue: 'accepted', purposeConsents: { ads: true } },
};
export const CONNECTIONS = 50;
export const FIXED_RATE = 2000;

export function load({ url, route, duration, rate }) {
  return autocannon({
    url: url + route,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BODIES[route]),
    connections: CONNECTIONS,
    duration,
    ...(rate ? { overallRate: rate } : {}),
  });
}

/** What the tables show of an autocannon result. */
export function readLoad(result) {
  return {
    requestsPerSecond: { median: result.requests.p50, p90: result.requests.p90, average: result.requests.average },
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    seconds: result.duration,
  };
}
