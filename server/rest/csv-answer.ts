import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { CsvExport } from '../lib/csv-export.js';

/** A CSV export's answer: a stream of text, sent as it is written (documented as text/csv). */
export const CsvSchema = z.custom<Readable>((value) => value instanceof Readable);

/** The CSV export of a list as a download named `<name>.csv`, with how many rows it holds and whether there were more. */
export function csvAnswer(reply: FastifyReply, name: string, exported: CsvExport): Readable {
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('cache-control', 'no-store')
    .header('x-export-rows', String(exported.rows))
    .header('x-export-truncated', String(exported.truncated));
  return exported.body;
}

/** A list's query schema without its paging: an export's filters. */
export const withoutPaging = <S extends z.ZodObject>(schema: S) => schema.omit({ page: true, per_page: true } as never);
