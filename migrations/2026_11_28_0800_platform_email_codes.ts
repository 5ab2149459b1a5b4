import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed.
// - email_sign_ins.project_id may be null: a sign-in code mailed to a developer (the platform's own
//   accounts, project_id null as in users). SQLite cannot drop a NOT NULL, so there the table is
//   rebuilt with the same columns, foreign key and indexes.

const COLUMNS = sql.raw(
  [
    'id',
    'project_id',
    'email',
    'kind',
    'secret_digest',
    'attempts',
    'flow_binding',
    'redirect_uri',
    'client_state',
    'interaction_id',
    'return_to',
    'device_fingerprint',
    'created_at',
    'expires_at',
    'used_at',
    'result_code_hash',
    'result_expires_at',
    'exchanged_at',
  ].join(', '),
);

async function createIndexes(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('email_sign_ins_address_idx').on('email_sign_ins').columns(['project_id', 'email', 'kind']).execute();
  await db.schema.createIndex('email_sign_ins_secret_idx').on('email_sign_ins').column('secret_digest').execute();
  await db.schema.createIndex('email_sign_ins_result_idx').on('email_sign_ins').column('result_code_hash').execute();
  await db.schema.createIndex('email_sign_ins_expiry_idx').on('email_sign_ins').column('expires_at').execute();
}

/** SQLite: a copy of the table with project_id's constraint as given, the rows moved over. */
async function rebuild(db: Kysely<any>, projectIdNotNull: boolean): Promise<void> {
  await db.schema
    .createTable('email_sign_ins_rebuilt')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => {
      const column = c.references('projects.id').onDelete('cascade');
      return projectIdNotNull ? column.notNull() : column;
    })
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret_digest', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flow_binding', 'text')
    .addColumn('redirect_uri', 'text')
    .addColumn('client_state', 'text')
    .addColumn('interaction_id', 'text')
    .addColumn('return_to', 'text')
    .addColumn('device_fingerprint', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('result_code_hash', 'text')
    .addColumn('result_expires_at', 'text')
    .addColumn('exchanged_at', 'text')
    .execute();
  const kept = projectIdNotNull ? sql`where project_id is not null` : sql``;
  await sql`insert into email_sign_ins_rebuilt (${COLUMNS}) select ${COLUMNS} from email_sign_ins ${kept}`.execute(db);
  await db.schema.dropTable('email_sign_ins').execute();
  await db.schema.alterTable('email_sign_ins_rebuilt').renameTo('email_sign_ins').execute();
  await createIndexes(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table email_sign_ins alter column project_id drop not null`.execute(db);
  } else {
    await rebuild(db, false);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`delete from email_sign_ins where project_id is null`.execute(db);
    await sql`alter table email_sign_ins alter column project_id set not null`.execute(db);
  } else {
    await rebuild(db, true);
  }
}
