import type { Readable } from 'node:stream';

/**
 * How an import reads its body: one value per user, numbered as the developer's file numbers it (an NDJSON line, a
 * JSON array's element, a CSV row). The native readers are in native.ts; a provider's (readers/<provider>.ts) maps its
 * own export to the user line with the same signature. A value that cannot be read is an UnreadableLine: that line
 * fails, the rest go on. A reader throws only when the whole input is unreadable (then the job fails).
 */
export type UserLineReader = (input: Readable) => AsyncIterable<{ line: number; value: unknown }>;

export class UnreadableLine {
  constructor(readonly reason: string) {}
}

/** One user is a few kilobytes; a longer line is refused rather than held in memory. */
export const MAX_LINE_BYTES = 1024 * 1024;
