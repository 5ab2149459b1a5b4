import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type LogFn = FastifyBaseLogger['info'];

const call = (log: LogFn, logger: FastifyBaseLogger, args: unknown[]) => (log as (...args: unknown[]) => void).apply(logger, args);

/**
 * A request's logger that makes its pino child (with the request id) on first use. Fastify makes one
 * for every request, and almost none logs anything: building pino's child each time was a cost of
 * every request.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  fatal(...args: unknown[]): void {
    call(this.#logger.fatal, this.#logger, args);
  }
  error(...args: unknown[]): void {
    call(this.#logger.error, this.#logger, args);
  }
  warn(...args: unknown[]): void {
    call(this.#logger.warn, this.#logger, args);
  }
  info(...args: unknown[]): void {
    call(this.#logger.info, this.#logger, args);
  }
  debug(...args: unknown[]): void {
    call(this.#logger.debug, this.#logger, args);
  }
  trace(...args: unknown[]): void {
    call(this.#logger.trace, this.#logger, args);
  }
  silent(...args: unknown[]): void {
    call(this.#logger.silent, this.#logger, args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger is made only when the request logs. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
