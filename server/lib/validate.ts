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

/**
 * A parser for tRPC's `.input()` that reports failures the same way the REST adapter does. Its
 * `_input`/`_output` types (tRPC reads them like a zod schema's) give clients the schema's input
 * type, so fields with defaults stay optional for the caller.
 */
export function inputParser<S extends z.ZodType>(schema: S): InputParser<z.input<S>, z.output<S>> {
  return ((raw: unknown) => parseInput(schema, raw)) as InputParser<z.input<S>, z.output<S>>;
}

export type InputParser<In, Out> = ((raw: unknown) => Out) & { _input: In; _output: Out };

/** For a procedure that takes no input. */
export const noInput = (() => undefined) as unknown as InputParser<void, void>;
