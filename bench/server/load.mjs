// autocannon loads on one route: saturation (50 connections for `duration` s) and a fixed
// overall rate per route (issue 13: 2,000 checks/s, 1,000 updates/s). Bodies are valid
// requests of each endpoint.
import autocannon from 'autocannon';

export const BODIES = {
  '/consent/check': { consentInstanceId: 'bench', consentStateValue: 'unknown', matchedGeoGroup: null, isDirty: false },
  '/consent/update': { consentInstanceId: 'bench', pageUserId: 'bench-user', consentStateValue: 'accepted', purposeConsents: { ads: true } },
};
export const CONNECTIONS = 50;
export const FIXED_RATES = { '/consent/check': 2000, '/consent/update': 1000 };

export function load({ url, route, duration, rate, connections = CONNECTIONS }) {
  return autocannon({
    url: url + route,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BODIES[route]),
    connections,
    duration,
    ...(rate ? { overallRate: rate } : {}),
  });
}

/** `load` split over several servers (a fleet behind a load balancer), connections shared, run at once; results as `readLoad`. */
export async function loadFleet({ urls, route, duration, rate }) {
  const share = (total) => Math.round(total / urls.length);
  const results = await Promise.all(
    urls.map((url) => load({ url, route, duration, connections: share(CONNECTIONS), ...(rate ? { rate: share(rate) } : {}) })),
  );
  const seconds = Math.max(...results.map((result) => result.duration));
  const sum = (pick) => results.reduce((total, result) => total + pick(result), 0);
  return {
    // Per-second samples are not aligned across clients: the fleet's rate is its requests / seconds.
    requestsPerSecond: { median: sum((r) => r.requests.total) / seconds, p90: null, average: sum((r) => r.requests.total) / seconds },
    latencyMs: { p50: Math.max(...results.map((r) => r.latency.p50)), p99: Math.max(...results.map((r) => r.latency.p99)) },
    errors: sum((r) => r.errors + r.timeouts + r.non2xx),
    requests: sum((r) => r.requests.total),
    seconds,
  };
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
