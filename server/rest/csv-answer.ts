import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { CsvExport } from '../lib/csv.js';

/** A CSV export's answer: declared as text, sent as it is. */
export const CsvSchema = z.string();

/** The CSV export of a list as a download named `<name>.csv`, with how many rows it holds and whether there were more. */
export function csvAnswer(reply: FastifyReply, name: string, exported: CsvExport): string {
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('cache-control', 'no-store')
    .header('x-export-rows', String(exported.rows))
    .header('x-export-truncated', String(exported.truncated));
  reply.serializer((payload: unknown) => payload as string);
  return exported.csv;
}

/** A list's query schema without its paging: an export's filters. */
export const withoutPaging = <S extends z.ZodObject>(schema: S) => schema.omit({ page: true, per_page: true } as never);
