import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { HTTP_STATUS_BY_CODE, type ErrorCode } from '../shared/errors.js';
import type { StepUpMethod, StepUpRefusal } from '../shared/schemas/step-up.js';
import { isDatabaseUnavailable } from './db/unavailable.js';

/** The one error type services throw. `detail` is safe to show to the caller. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  /** Seconds, for TOO_MANY_REQUESTS and SERVICE_UNAVAILABLE. */
  readonly retryAfterS: number | undefined;
  /** For UNAUTHORIZED from a signed-in session that must prove who it is again: the proofs its account has. */
  readonly stepUpMethods: StepUpMethod[] | undefined;

  constructor(code: ErrorCode, detail: string, options: { retryAfterS?: number; stepUpMethods?: StepUpMethod[] } = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.retryAfterS = options.retryAfterS;
    this.stepUpMethods = options.stepUpMethods;
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  /** What the answer carries besides `detail` (both transports): the step-up a refusal asks for. */
  get extra(): StepUpRefusal | undefined {
    return this.stepUpMethods ? { step_up_required: true, step_up_methods: this.stepUpMethods } : undefined;
  }
}

const TRPC_CODE_BY_CODE: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  UNPROCESSABLE_CONTENT: 'UNPROCESSABLE_CONTENT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export function trpcCodeOf(error: AppError): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE_BY_CODE[error.code];
}

export const UNAVAILABLE_DETAIL = 'Service temporarily unavailable';
/** A dropped connection is replaced at once and a restart takes seconds: the next try soon is likely to work. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/**
 * The error a caller is answered with: an AppError as it is, a database that cannot serve right now
 * (db/unavailable.ts) as 503 with Retry-After; undefined for anything else (a 500). Both transports
 * call this once, on the way out, so nothing on the request path pays for it.
 */
export function answerableError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return new AppError('SERVICE_UNAVAILABLE', UNAVAILABLE_DETAIL, { retryAfterS: UNAVAILABLE_RETRY_AFTER_S });
  return undefined;
}
