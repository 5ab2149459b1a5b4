import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from '../../server/lib/request-logger.js';

function fakeLogger(level = 'warn') {
  const child = { level, info: vi.fn(), error: vi.fn(), warn: vi.fn(), debug: vi.fn(), fatal: vi.fn(), trace: vi.fn(), silent: vi.fn(), child: vi.fn() };
  const parent = { ...child, child: vi.fn(() => child as unknown as FastifyBaseLogger) };
  return { parent: parent as unknown as FastifyBaseLogger & { child: typeof parent.child }, child };
}

describe("a request's lazy logger", () => {
  it('makes its child only when it logs, once, with the bindings and options it was given', () => {
    const { parent, child } = fakeLogger();
    const logger = lazyRequestLogger(parent, { reqId: 'req-1' }, {});
    expect(logger.level).toBe('warn');
    expect(parent.child).not.toHaveBeenCalled();
    logger.error({ err: new Error('boom') }, 'unhandled error');
    logger.warn('second');
    expect(parent.child).toHaveBeenCalledTimes(1);
    expect(parent.child).toHaveBeenCalledWith({ reqId: 'req-1' }, {});
    expect(child.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'unhandled error');
    expect(child.warn).toHaveBeenCalledWith('second');
  });

  it("writes a request's lines with its request id through Fastify, and a request that logs nothing makes no child", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const loggerInstance = pino({ level: 'info' }, stream);
    const child = vi.spyOn(loggerInstance, 'child');
    const app = Fastify({ loggerInstance, disableRequestLogging: true, childLoggerFactory: lazyRequestLogger });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/loud', async (request) => {
      request.log.warn({ detail: 'x' }, 'something to say');
      return { ok: true };
    });
    try {
      await app.ready();
      child.mockClear();
      expect((await app.inject('/quiet')).statusCode).toBe(200);
      expect(child).not.toHaveBeenCalled();
      expect((await app.inject('/loud')).statusCode).toBe(200);
      expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'something to say', detail: 'x', reqId: expect.stringMatching(/^req-/) })]);
    } finally {
      await app.close();
    }
  });
});
