/**
 * PostgreSQL LISTEN on a connection of its own, for the caches of the PostgreSQL adapter: each
 * channel's handler gets the payload of every NOTIFY on it, and `null` whenever changes may
 * have been missed (the connection was lost, or was just opened); a lost connection is opened
 * again after `retryMs`.
 */
import pg from 'pg';

export type ChannelHandler = (payload: string | null) => void;

export type ChangeListener = {
  /** Starts listening; settles once the first LISTEN has been tried (a failure retries in the background). */
  start(handlers: Readonly<Record<string, ChannelHandler>>): Promise<void>;
  stop(): Promise<void>;
};

export function createChangeListener(
  connectionString: string,
  options: { readonly retryMs: number; readonly clientOptions: pg.ClientConfig },
): ChangeListener {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let handlers: Readonly<Record<string, ChannelHandler>> = {};
  const missed = () => {
    for (const handler of Object.values(handlers)) handler(null);
  };
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString, ...options.clientOptions });
    const lost = () => {
      if (client !== next) return;
      client = null;
      missed();
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(connect, options.retryMs);
    };
    next.on('notification', ({ channel, payload }) => {
      if (Object.hasOwn(handlers, channel)) handlers[channel]!(payload ?? null);
    });
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    try {
      await next.connect();
      for (const channel of Object.keys(handlers)) await next.query(`LISTEN ${channel}`);
      // Changes made while not listening were missed.
      missed();
    } catch {
      lost();
    }
  };
  return {
    start(channelHandlers) {
      handlers = channelHandlers;
      return connect();
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
