import type { FastifyRequest } from 'fastify';

/** The token of an `Authorization: Bearer …` header; undefined without one or when it is malformed. */
export function readBearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
}
