import type { Kysely } from 'kysely';

// Frozen once landed.
// - webhook_deliveries: what the last attempt sent and got back, for the delivery's detail.
//   request_headers: the headers sent, JSON [{name, value}] (the signature is there, the endpoint's
//   secret never is); response_headers: the answer's, the same shape, capped (dispatcher); response_body:
//   the answer's first 4 KB (cut at a UTF-8 character's boundary), with response_body_truncated 1 when
//   there was more. All null when the attempt sent nothing or got no answer, and on rows written before.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('request_headers', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('response_headers', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('response_body', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('response_body_truncated', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['response_body_truncated', 'response_body', 'response_headers', 'request_headers']) {
    await db.schema.alterTable('webhook_deliveries').dropColumn(column).execute();
  }
}
