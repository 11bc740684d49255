// Loads on one route. Saturation: autocannon, 50 connections for `duration` s. Fixed rate
// (the throughput goals of docs/decisions/server-throughput.md: 2,000 checks/s, 1,000 updates/s): our own open-loop generator (`pacedLoad`), see
// there for why not autocannon's `overallRate`. Bodies are valid requests of each endpoint.
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { quantile } from '../lib/stats.mjs';

const checkBody = { consentInstanceId: 'bench', consentStateValue: 'unknown', matchedGeoGroup: null, isDirty: false };
export const BODIES = {
  '/consent/check': checkBody,
  '/consent/update': {
    consentInstanceId: 'bench',
    pageUserId: 'bench-user',
    consentStateValue: 'accepted',
    purposeConsents: { ads: true },
  },
};
/** The user cookie of the returning reader: one update with it is stored before its checks (server-part.mjs). */
export const RETURNING_COOKIE = 'page_uid=bench-returning-reader-000001';
/** The check of a returning reader: the same request with the user cookie of a stored decision. */
export const RETURNING = '/consent/check, returning reader';
const REQUESTS = {
  [RETURNING]: { path: '/consent/check', body: checkBody, headers: { cookie: RETURNING_COOKIE } },
};
/** A load's path, body and extra headers; a load named by a route sends that route's body without a cookie. */
export const requestOf = (route) => REQUESTS[route] ?? { path: route, body: BODIES[route], headers: {} };
export const CONNECTIONS = 50;
export const FIXED_RATES = { '/consent/check': 2000, [RETURNING]: 2000, '/consent/update': 1000 };

export function load({ url, route, duration, rate, connections = CONNECTIONS }) {
  const { path, body, headers } = requestOf(route);
  return autocannon({
    url: url + path,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    connections,
    duration,
    ...(rate ? { overallRate: rate } : {}),
  });
}

/**
 * `rate` requests per second, evenly spaced, for `duration` s, sent in turn to each of `urls`
 * (a load balancer's round robin) over keep-alive sockets (`connections` in all, shared
 * between the URLs), after one second at the same rate that opens and warms them (not
 * recorded). Open loop: a request is sent at its scheduled time whether or not earlier answers
 * came back (it waits for a free socket when all are busy), and its latency is counted from
 * that scheduled time, so a stall anywhere (server, client, queue) counts for every request it
 * delays. Not autocannon's `overallRate`: that is no fixed rate, each connection sends its share
 * of the second back to back and then pauses until the next second, and its coordinated-omission
 * correction assumes one request per millisecond per connection whatever the rate, adding a
 * synthetic sample for every millisecond of a slow answer (docs/decisions/server-throughput.md).
 * Results as `readLoad`.
 */
export async function pacedLoad({ urls, route, duration, rate, connections = CONNECTIONS }) {
  const { path, headers: extraHeaders, body: payload } = requestOf(route);
  const body = JSON.stringify(payload);
  const pools = urls.map((url) => {
    const target = new URL(url + path);
    return {
      agent: new Agent({ keepAlive: true, maxSockets: Math.ceil(connections / urls.length) }),
      host: target.hostname,
      port: target.port,
      path: target.pathname,
    };
  });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extraHeaders };
  const send = (pool) =>
    new Promise((resolve) => {
      const outgoing = request({ ...pool, method: 'POST', headers, timeout: 10_000 }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode >= 200 && response.statusCode < 300));
        response.on('error', () => resolve(false));
      });
      outgoing.on('timeout', () => outgoing.destroy());
      outgoing.on('error', () => resolve(false));
      outgoing.end(body);
    });
  const run = async (seconds) => {
    const total = Math.round(rate * seconds);
    const latencies = [];
    const pending = [];
    let errors = 0;
    let sent = 0;
    const start = performance.now();
    const scheduledAt = (index) => start + (index * 1000) / rate;
    await new Promise((done) => {
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
        for (; sent < due; sent++) {
          const scheduled = scheduledAt(sent);
          pending.push(
            send(pools[sent % pools.length]).then((ok) => {
              if (ok) latencies.push(performance.now() - scheduled);
              else errors++;
            }),
          );
        }
        if (sent < total) setTimeout(tick, Math.max(0, scheduledAt(sent) - performance.now()));
        else done();
      };
      tick();
    });
    await Promise.all(pending);
    return { latencies, errors, seconds: (performance.now() - start) / 1000 };
  };
  try {
    await run(1);
    const { latencies, errors, seconds } = await run(duration);
    return {
      requestsPerSecond: { median: latencies.length / seconds, p90: null, average: latencies.length / seconds },
      latencyMs: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) },
      errors,
      requests: latencies.length + errors,
      seconds,
    };
  } finally {
    for (const pool of pools) pool.agent.destroy();
  }
}

/** Saturation `load` split over several servers (a fleet behind a load balancer), connections shared, run at once; results as `readLoad`. */
export async function loadFleet({ urls, route, duration }) {
  const results = await Promise.all(
    urls.map((url) => load({ url, route, duration, connections: Math.round(CONNECTIONS / urls.length) })),
  );
  const seconds = Math.max(...results.map((result) => result.duration));
  const sum = (pick) => results.reduce((total, result) => total + pick(result), 0);
  return {
    // Per-second samples are not aligned across clients: the fleet's rate is its requests / seconds.
    requestsPerSecond: {
      median: sum((r) => r.requests.total) / seconds,
      p90: null,
      average: sum((r) => r.requests.total) / seconds,
    },
    latencyMs: {
      p50: Math.max(...results.map((r) => r.latency.p50)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
    },
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
