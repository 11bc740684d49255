/**
 * Runs in every frame before the page's own scripts (the audit's init script, see
 * recorder-script.ts): reports each storage write with the stack of the code that made it and,
 * in the top frame, each element the runtime built, each blocked text/plain script that ran and
 * each consent-change. Plain JavaScript: it is sent to the browser as it is written here.
 */
// biome-ignore lint/correctness/noUnusedVariables: called by the init script that wraps this file.
function recorder(binding) {
  const send = (entry) => {
    try {
      const report = Reflect.get(globalThis, binding);
      if (typeof report === 'function') report({ ...entry, time: Date.now(), frameUrl: location.href });
    } catch {}
  };
  const stack = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40;
    const text = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    return text;
  };
  const wrap = (proto, name, describe) => {
    const original = proto && Reflect.get(proto, name);
    if (!proto || typeof original !== 'function') return;
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (...args) {
        try {
          send({ ...describe(this, args), stack: stack() });
        } catch {}
        return Reflect.apply(original, this, args);
      },
    });
  };
  const storageKind = (self) => {
    try {
      return self === globalThis.localStorage ? 'localStorage' : 'sessionStorage';
    } catch {
      return 'sessionStorage';
    }
  };
  wrap(globalThis.Storage?.prototype, 'setItem', (self, [key]) => ({ kind: storageKind(self), key: String(key) }));
  wrap(globalThis.IDBFactory?.prototype, 'open', (_self, [name]) => ({ kind: 'indexedDB', key: String(name) }));
  for (const method of ['put', 'add']) {
    wrap(globalThis.IDBObjectStore?.prototype, method, (self) => {
      const store = self;
      return { kind: 'indexedDB', key: `${store.transaction.db.name}/${store.name}` };
    });
  }
  const cookieStore = Reflect.get(globalThis, 'CookieStore');
  wrap(cookieStore?.prototype, 'set', (_self, [first, value]) => {
    const options = typeof first === 'object' && first !== null ? first : { name: first, value };
    const expires = typeof options['expires'] === 'number' ? `; expires=${new Date(options['expires']).toUTCString()}` : '';
    const domain = typeof options['domain'] === 'string' ? `; domain=${options['domain']}` : '';
    return { kind: 'cookie', key: `${String(options['name'])}=${String(options['value'])}${expires}${domain}` };
  });
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (cookie?.set && cookie.get) {
    const { get, set } = cookie;
    Object.defineProperty(Document.prototype, 'cookie', {
      configurable: true,
      get,
      set(value) {
        send({ kind: 'cookie', key: String(value), stack: stack() });
        set.call(this, value);
      },
    });
  }
  if (globalThis.top !== globalThis) return;
  // When `__tcfapi` first answers and when it reports `tcloaded`, in ms after the page's response
  // started to arrive (so that the server's and the network's time do not count).
  const started = Date.now();
  const since = () => {
    const navigation = performance.getEntriesByType('navigation')[0];
    return Math.max(0, performance.now() - (navigation ? navigation.responseStart : 0));
  };
  let isProbed = false;
  const probe = (api) => {
    if (isProbed) return;
    isProbed = true;
    clearInterval(poll);
    let isPingAnswered = false;
    const seen = new Set();
    try {
      api('ping', 2, () => {
        if (isPingAnswered) return;
        isPingAnswered = true;
        send({ kind: 'tcf-answer', key: 'ping', since: since() });
      });
      api('addEventListener', 2, (tcData) => {
        const status = typeof tcData === 'object' && tcData !== null ? Object.getOwnPropertyDescriptor(tcData, 'eventStatus')?.value : undefined;
        if (typeof status !== 'string' || seen.has(status) || seen.size > 8) return;
        seen.add(status);
        send({ kind: 'tcf-answer', key: `event:${status}`, since: since() });
      });
    } catch {}
  };
  const poll = setInterval(() => {
    const api = Reflect.get(globalThis, '__tcfapi');
    if (typeof api === 'function') probe(api);
    else if (Date.now() - started > 15_000) clearInterval(poll);
  }, 20);
  // An assignment (`window.__tcfapi = stub`, as the IAB stubs write it) is seen at once, the
  // probe asked once the assigning script's task is done; a declaration replaces this accessor
  // and is seen by the poll.
  let current;
  try {
    Object.defineProperty(globalThis, '__tcfapi', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (value) => {
        current = value;
        if (typeof value === 'function') queueMicrotask(() => probe(value));
      },
    });
  } catch {}
  const marker = (element) => ({ block: element.getAttribute('data-block-on-consent'), purposes: element.getAttribute('data-block-on-consent-purposes') });
  const built = new WeakSet();
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      const target = mutation.target;
      if (mutation.type === 'attributes' && target.classList.contains('page-built') && !built.has(target)) {
        built.add(target);
        send({ kind: 'built', key: target.localName, ...marker(target), src: target.getAttribute('src') ?? target.getAttribute('data-src') });
      }
      for (const node of mutation.addedNodes) {
        if (!(node instanceof HTMLScriptElement) || node.type === 'text/plain') continue;
        if (node.hasAttribute('data-block-on-consent') || node.hasAttribute('data-block-on-consent-purposes')) {
          send({ kind: 'script-run', key: node.src ? 'external' : 'inline', ...marker(node), src: node.src || null });
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  document.addEventListener(
    'consent-change',
    (event) => {
      const detail = event.detail;
      const state = typeof detail === 'object' && detail !== null ? Object.getOwnPropertyDescriptor(detail, 'state')?.value : undefined;
      send({ kind: 'consent-change', key: typeof state === 'string' ? state : '' });
    },
    true,
  );
}
