// Every request of a page as CDP's Network domain reports it: when it was sent and by whom (the
// initiator: the parser, or a script's stack), where the response came from, when it finished.
// Listening adds no work to the page (the meter has the Network domain on anyway); the
// critical path is built from it afterwards (lib/critical-path.mjs).

/** Starts recording on `cdp` (Network enabled before the navigation); `read()` gives the requests in order. */
export function recordRequests(cdp) {
  const requests = new Map();
  const update = (requestId, fields) => {
    const request = requests.get(requestId);
    if (request) Object.assign(request, fields);
  };
  cdp.on('Network.requestWillBeSent', ({ requestId, request, type, initiator, timestamp, wallTime }) => {
    // A redirect reuses the id: the chain starts at the first request.
    if (requests.has(requestId)) return;
    requests.set(requestId, {
      url: request.url,
      type,
      initiator,
      sentAt: timestamp,
      wallTime,
      finishedAt: null,
      status: null,
      fromCache: false,
      fromPrefetchCache: false,
      failed: false,
    });
  });
  cdp.on('Network.requestServedFromCache', ({ requestId }) => update(requestId, { fromCache: true }));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const request = requests.get(requestId);
    if (!request) return;
    Object.assign(request, { status: response.status, fromPrefetchCache: Boolean(response.fromPrefetchCache) });
    if (response.fromDiskCache) request.fromCache = true;
  });
  cdp.on('Network.loadingFinished', ({ requestId, timestamp }) => update(requestId, { finishedAt: timestamp }));
  cdp.on('Network.loadingFailed', ({ requestId, timestamp }) =>
    update(requestId, { finishedAt: timestamp, failed: true }),
  );
  // The status on the wire: a revalidated response is reported above as the cached 200, here as
  // the 304 it was. This event may come before or after the request's other events.
  const wireStatus = new Map();
  cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => wireStatus.set(requestId, statusCode));
  return {
    read: () =>
      [...requests].map(([requestId, request]) =>
        wireStatus.get(requestId) === 304 ? { ...request, status: 304 } : request,
      ),
  };
}
