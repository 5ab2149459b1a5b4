import type { z } from 'zod';
import { AppError } from '../errors.js';

/** Parses with a shared schema; the first broken rule becomes a 422 with the schema's own wording. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '';
  let detail = issue?.message ?? 'Invalid input';
  if (issue?.code === 'invalid_type' && issue.path.length === 0) detail = 'Request body must be a JSON object';
  else if (detail.startsWith('Invalid input') && field) detail = `${field}: ${detail}`;
  throw new AppError('UNPROCESSABLE_CONTENT', detail);
}

/** A parser for tRPC's `.input()` that reports failures the same way the REST adapter does. */
export function inputParser<S extends z.ZodType>(schema: S) {
  return (raw: unknown): z.output<S> => parseInput(schema, raw);
}
