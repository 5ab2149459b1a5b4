import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors.js';

/** The largest import body taken (about two million users of a few hundred bytes). */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
/** An upload left this long in the spool directory belongs to a server that stopped during its job. */
export const LEFTOVER_SPOOL_MS = 24 * 60 * 60 * 1000;
const SPOOL_PREFIX = 'user-import-';

export interface Spooled {
  open(): Readable;
  remove(): Promise<void>;
}

/**
 * Writes an upload to a private temporary file as it arrives (constant memory), so the request can be answered
 * 202 once it is in and the job reads it at its own pace; 413 past MAX_IMPORT_BYTES. `firstByte` checks the first
 * non-blank character (a JSON array's `[`) before anything is processed.
 */
export async function spoolUpload(spoolDir: string, input: Readable, firstByte?: { expect: string; refusal: string }): Promise<Spooled> {
  await mkdir(spoolDir, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(path.join(spoolDir, SPOOL_PREFIX));
  const file = path.join(dir, 'body');
  let size = 0;
  let checked = !firstByte;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > MAX_IMPORT_BYTES) return done(new AppError('PAYLOAD_TOO_LARGE', `An import body may hold at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`));
      if (!checked && firstByte) {
        const text = chunk.toString('utf8').replace(/^[\s\ufeff]+/, '');
        if (text.length > 0) {
          checked = true;
          if (text[0] !== firstByte.expect) return done(new AppError('UNPROCESSABLE_CONTENT', firstByte.refusal));
        }
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(input, guard, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', 'The upload did not arrive whole');
  }
  return { open: () => createReadStream(file), remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Removes uploads a stopped server left behind (its job reads as failed once its heartbeat is a minute old; the
 * file is only removed when the job ends in that process). Anything younger than LEFTOVER_SPOOL_MS is left alone,
 * since another instance sharing the directory may be reading it. Answers how many it removed.
 */
export async function sweepLeftoverSpools(spoolDir: string, now: number): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(spoolDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.startsWith(SPOOL_PREFIX)) continue;
    const dir = path.join(spoolDir, entry);
    const modified = await stat(dir).then((info) => info.mtimeMs, () => null);
    if (modified === null || now - modified < LEFTOVER_SPOOL_MS) continue;
    await rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
