import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { MachineClientsTable } from '../../db/schema.js';

export type MachineClientRow = Selectable<MachineClientsTable>;

export async function insertMachineClient(db: Db, row: Insertable<MachineClientsTable>): Promise<void> {
  await db.insertInto('machine_clients').values(row).execute();
}

export function listMachineClients(db: Db, projectId: string): Promise<MachineClientRow[]> {
  return db.selectFrom('machine_clients').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

export async function countMachineClients(db: Db, projectId: string): Promise<number> {
  const row = await db.selectFrom('machine_clients').select((eb) => eb.fn.countAll<number>().as('count')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findMachineClient(db: Db, projectId: string, id: string): Promise<MachineClientRow | undefined> {
  return db.selectFrom('machine_clients').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export function findMachineClientByClientId(db: Db, clientId: string): Promise<MachineClientRow | undefined> {
  return db.selectFrom('machine_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function updateMachineClient(db: Db, id: string, changes: Updateable<MachineClientsTable>): Promise<void> {
  await db.updateTable('machine_clients').set(changes).where('id', '=', id).execute();
}

export async function deleteMachineClient(db: Db, projectId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('machine_clients').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Marks the client used, at most once per `since` (one write a minute however often it asks for tokens). */
export async function touchMachineClient(db: Db, id: string, now: string, since: string): Promise<void> {
  await db
    .updateTable('machine_clients')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}
