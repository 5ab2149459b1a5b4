import type { Db } from '../../db/connect.js';
import type { DeviceRow } from '../../db/schema.js';

export async function findDevice(db: Db, userId: string, fingerprint: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('user_id', '=', userId).where('fingerprint', '=', fingerprint).executeTakeFirst();
}

/** One record per user and fingerprint; `isNew` tells a first sign-in from this device. */
export async function recordDeviceSeen(
  db: Db,
  device: { id: string; user_id: string; fingerprint: string; user_agent: string | null; ip: string | null; now: string },
): Promise<{ device: DeviceRow; isNew: boolean }> {
  const inserted = await db
    .insertInto('devices')
    .values({
      id: device.id,
      user_id: device.user_id,
      fingerprint: device.fingerprint,
      user_agent: device.user_agent,
      last_ip: device.ip,
      is_trusted: 0,
      is_blocked: 0,
      first_seen: device.now,
      last_seen: device.now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
    .executeTakeFirst();
  const isNew = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  if (!isNew) {
    await db
      .updateTable('devices')
      .set({ last_seen: device.now, last_ip: device.ip, user_agent: device.user_agent })
      .where('user_id', '=', device.user_id)
      .where('fingerprint', '=', device.fingerprint)
      .execute();
  }
  const row = await findDevice(db, device.user_id, device.fingerprint);
  return { device: row!, isNew };
}
