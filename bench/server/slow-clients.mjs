// Normal requests beside slow clients: our server (memory store, REQUEST_TIMEOUT_MS=1000) is
// held by 30 slowloris connections (headers, body and idle, 10 each) while 40 checks go one
// after the other on fresh connections; reports their latency and when the slow ones were cut
// off. The reliability suite checks that every normal request is answered and every slow
// client is cut off; how fast is measured here, not asserted.
import { slowClient, timedRequest } from '../../test/server/reliability-clients.ts';
import { formatNumber } from '../lib/format.mjs';
import { summarize } from '../lib/stats.mjs';
import { startChildServer } from './child-server.mjs';

const TIMEOUT_MS = 1000;
const CHECK = JSON.stringify({ consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null });
const KINDS = {
  headers: ['POST /consent/update HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaa\r\n'],
  body: [
    'POST /consent/update HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n',
    '{"consentInstanceId":"site"} ',
  ],
  idle: ['', ''],
};

export async function measureSlowClients(env) {
  const server = await startChildServer({
    command: 'node_modules/.bin/tsx',
    args: ['server/main.ts'],
    env: { ...env, DATABASE_URL: 'memory:', REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  try {
    const port = Number(new URL(server.url).port);
    const slow = Object.values(KINDS).flatMap(([head, trickle]) =>
      Array.from({ length: 10 }, () => slowClient(port, head, trickle, 100, 15_000)),
    );
    const latencies = [];
    for (let i = 0; i < 40; i++)
      latencies.push(
        (
          await timedRequest(port, {
            method: 'POST',
            path: '/consent/check',
            headers: { 'content-type': 'application/json' },
            body: CHECK,
          })
        ).ms,
      );
    const cutOff = (await Promise.all(slow)).map((result) => result.closedAfterMs);
    return {
      latency: summarize(latencies),
      max: Math.max(...latencies),
      cutOff: { min: Math.min(...cutOff), max: Math.max(...cutOff) },
    };
  } finally {
    await server.stop();
  }
}

export function slowClientTable({ latency, max, cutOff }) {
  return {
    title: 'Normal requests beside 30 slow clients',
    columns: [
      'requests',
      'latency ms median / p90',
      'latency ms max',
      'slow clients cut off after ms',
      'REQUEST_TIMEOUT_MS',
    ],
    rows: [
      [
        '40 checks, one at a time',
        `${formatNumber(latency.median, 1)} / ${formatNumber(latency.p90, 1)}`,
        formatNumber(max, 1),
        `${cutOff.min}-${cutOff.max}`,
        String(TIMEOUT_MS),
      ],
    ],
    notes: [
      "Each check on a fresh connection. The cut-off includes Node's check interval (server/app.ts, REQUEST_TIMEOUT_CHECK_MS).",
    ],
  };
}
