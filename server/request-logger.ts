/**
 * `request.log` without a pino child per request (docs/decisions/server-throughput.md):
 * Fastify's default makes one for every request (about 3 us of the ~50 us of CPU a check
 * costs), though most requests log nothing at the usual levels. Here each request gets an
 * object inheriting from the server's logger; the real child, with the request id, is made on
 * the first call at an enabled level. Calls at disabled levels are the parent's no-ops. The
 * levels are read when the first request arrives; the server does not change its level while
 * it runs. `bindings()` on a request's logger before its first enabled call shows the server's
 * bindings, without the request id.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions as ChildOptions } from 'pino';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type LazyChild = FastifyBaseLogger & { bindings_: Bindings; options_: ChildOptions; child_?: FastifyBaseLogger };

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
const prototypes = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

function childOf(logger: LazyChild, parent: FastifyBaseLogger): FastifyBaseLogger {
  logger.child_ ??= parent.child(logger.bindings_, logger.options_);
  return logger.child_;
}

function prototypeFor(parent: FastifyBaseLogger): FastifyBaseLogger {
  const prototype = Object.create(parent) as FastifyBaseLogger;
  const isEnabled = (level: string) =>
    (parent as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? true;
  for (const level of LEVELS) {
    if (!isEnabled(level)) continue;
    prototype[level] = function (this: LazyChild, ...args: unknown[]) {
      (childOf(this, parent)[level] as (...args: unknown[]) => void)(...args);
    } as FastifyBaseLogger[typeof level];
  }
  prototype.child = function (this: LazyChild, bindings, options) {
    return childOf(this, parent).child(bindings, options);
  };
  return prototype;
}

export const lazyChildLogger: ChildLoggerFactory = (parent, bindings, options) => {
  // A route's own log level needs a real child at once.
  if (options.level !== undefined) return parent.child(bindings, options);
  let prototype = prototypes.get(parent);
  if (!prototype) prototypes.set(parent, (prototype = prototypeFor(parent)));
  const logger = Object.create(prototype) as LazyChild;
  logger.bindings_ = bindings;
  logger.options_ = options;
  return logger;
};
