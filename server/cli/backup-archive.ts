import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { pendingMigrations, unknownMigrations } from '../db/migrate.js';
import { copySqliteOnline, integrityProblems, openReadOnly } from '../db/sqlite-backup.js';
import { createSecretBox } from '../lib/secret-box.js';
import { masterKeyOpensSealedSecrets } from '../modules/projects/projects.service.js';
import { extractTo, readEntry, readTar, writeTar, type TarEntry } from './tar.js';

/** Why a backup or a restore was refused, in one line for the operator. */
export class BackupError extends Error {}

/**
 * A backup of a SQLite deployment is one tar archive: backup.json (what it is), authplatform.sqlite (a
 * consistent copy made with SQLite's backup API while the server runs) and keys/ (DATA_DIR/keys: the
 * master key that opens the secrets sealed in the database, and the platform's signing key).
 */
const FORMAT = 'authplatform-backup';
const MANIFEST = 'backup.json';
const DATABASE = 'authplatform.sqlite';
const KEYS = 'keys';
const KEY_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,90}$/;

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  app_version: string;
  created_at: string;
  /** Keys the server took from the environment, which are not in the archive. */
  keys_from_environment: string[];
}

const APP_VERSION: string = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')).version;

const WITHOUT_MASTER_KEY = "without it the projects' signing keys, sign-in connection and captcha secrets, webhook secrets, authenticator-app secrets and recovery codes cannot be used";

function sqliteFileOf(config: Config, pgTool: string): string {
  if (config.database.kind === 'postgres') throw new BackupError(`DATABASE_URL is PostgreSQL: use ${pgTool} (see "Backups" in the README)`);
  if (config.database.file === ':memory:') throw new BackupError('DATABASE_URL is an in-memory SQLite database: there is nothing on disk to back up or restore into');
  return path.resolve(config.database.file);
}

/** Refuses unless the master key `key` (base64; null: none) opens the secrets sealed in the SQLite file, if it holds any. */
async function requireMasterKeyOpens(databaseFile: string, key: string | null, whose: string): Promise<void> {
  const bytes = key ? Buffer.from(key.trim(), 'base64') : randomBytes(32);
  if (bytes.length !== 32) throw new BackupError(`${whose} is not a master key (32 bytes, base64)`);
  const db = openReadOnly(databaseFile);
  try {
    const opens = await masterKeyOpensSealedSecrets({ db, secretBox: createSecretBox(bytes) });
    if (opens === false) throw new BackupError(key ? `${whose} does not open the secrets sealed in this database` : `there is no master key (${whose}), and the database holds secrets sealed with one`);
  } finally {
    await db.destroy();
  }
}

/**
 * `npm run backup -- FILE`: the SQLite database and DATA_DIR/keys into the new archive FILE, while the
 * server runs. Never replaces a file; the archive appears only once complete (written beside it, synced,
 * then renamed), after its copy of the database passed `PRAGMA integrity_check`.
 */
export async function backUp(config: Config, file: string, say: (line: string) => void): Promise<void> {
  const source = sqliteFileOf(config, 'pg_dump');
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new BackupError(`${file} exists already: a backup never replaces a file, choose another name`);
  if (!fs.existsSync(path.dirname(target))) throw new BackupError(`${path.dirname(file)}: no such directory`);
  if (!fs.existsSync(source)) throw new BackupError(`${source}: no such database`);
  const keysDir = path.join(config.dataDir, KEYS);
  const keyFiles = fs.existsSync(keysDir) ? fs.readdirSync(keysDir).filter((name) => KEY_FILE.test(name) && fs.statSync(path.join(keysDir, name)).isFile()).sort() : [];
  const masterKeyFile = path.join(keysDir, 'master.key');
  const fromEnvironment = [config.masterKey ? 'MASTER_KEY' : null, config.jwtPrivateKey ? 'JWT_PRIVATE_KEY' : null].filter((name) => name !== null);

  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  const copy = `${partial}.sqlite`;
  try {
    await copySqliteOnline(source, copy);
    const problems = integrityProblems(copy);
    if (problems.length > 0) throw new BackupError(`the copy fails PRAGMA integrity_check (${problems[0]}): the database itself may be damaged`);
    const masterKey = config.masterKey ?? (fs.existsSync(masterKeyFile) ? fs.readFileSync(masterKeyFile, 'utf8') : null);
    await requireMasterKeyOpens(copy, masterKey, config.masterKey ? 'MASTER_KEY' : `${masterKeyFile}`);
    const manifest: Manifest = { format: FORMAT, version: 1, app_version: APP_VERSION, created_at: new Date().toISOString(), keys_from_environment: fromEnvironment };
    await writeTar(partial, [
      { name: MANIFEST, mode: 0o600, from: { data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) } },
      { name: DATABASE, mode: 0o600, from: { file: copy } },
      ...keyFiles.map((name) => ({ name: `${KEYS}/${name}`, mode: 0o600, from: { file: path.join(keysDir, name) } })),
    ]);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(copy, { force: true });
  }
  const size = (fs.statSync(target).size / 1024 / 1024).toFixed(1);
  say(`Backed up ${source} and ${keyFiles.length ? keyFiles.map((name) => `${KEYS}/${name}`).join(', ') : 'no key files'} to ${file} (${size} MB).`);
  if (config.masterKey) say(`MASTER_KEY comes from the environment and is not in the backup: keep it with the backup; ${WITHOUT_MASTER_KEY}.`);
  if (config.jwtPrivateKey) say('JWT_PRIVATE_KEY comes from the environment and is not in the backup: keep it too, or access tokens issued before the restore are refused (everyone signs in again).');
  if (keyFiles.length > 0) say('The archive holds private keys: store it where only you can read it.');
}

const isKeyEntry = (name: string) => name.startsWith(`${KEYS}/`) && KEY_FILE.test(name.slice(KEYS.length + 1));

/**
 * `npm run restore -- FILE`: an archive `backUp` made into an empty data folder (DATA_DIR, and the
 * database file DATABASE_URL names): nothing that exists is ever replaced. The database must pass
 * `PRAGMA integrity_check`, must not come from a newer version, and its sealed secrets must open with
 * the master key the server will use (MASTER_KEY, else the archive's); if anything fails, what was
 * written is removed again.
 */
export async function restore(config: Config, file: string, say: (line: string) => void): Promise<void> {
  const databaseFile = sqliteFileOf(config, 'pg_restore');
  const archive = path.resolve(file);
  if (!fs.existsSync(archive)) throw new BackupError(`${file}: no such file`);
  let entries: TarEntry[];
  try {
    entries = await readTar(archive);
  } catch (error) {
    throw new BackupError(`${file}: ${(error as Error).message}`);
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const stranger = entries.find((entry) => entry.name !== MANIFEST && entry.name !== DATABASE && !isKeyEntry(entry.name));
  if (stranger) throw new BackupError(`${file} holds ${JSON.stringify(stranger.name)}, which no backup of this server does`);
  const manifestEntry = byName.get(MANIFEST);
  let manifest: Partial<Manifest> | undefined;
  try {
    if (manifestEntry && manifestEntry.size <= 64 * 1024) manifest = JSON.parse((await readEntry(archive, manifestEntry)).toString('utf8')) as Partial<Manifest>;
  } catch {
    manifest = undefined;
  }
  const database = byName.get(DATABASE);
  if (manifest?.format !== FORMAT || manifest.version !== 1 || !database) throw new BackupError(`${file} is not a backup made by npm run backup`);

  const dataDir = path.resolve(config.dataDir);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) throw new BackupError(`DATA_DIR (${dataDir}) is not empty: restore into an empty data folder`);
  const taken = [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`].find((name) => fs.existsSync(name));
  if (taken) throw new BackupError(`${taken} exists: restore into an empty data folder`);

  // What this restore made, undone in reverse order if it does not finish.
  const made: string[] = [];
  const makeDirectory = (directory: string, mode?: number) => {
    const first = fs.mkdirSync(directory, { recursive: true, mode });
    if (first) made.push(first);
  };
  try {
    makeDirectory(dataDir);
    makeDirectory(path.dirname(databaseFile));
    const incoming = `${databaseFile}.restoring-${randomBytes(4).toString('hex')}`;
    made.push(incoming);
    await extractTo(archive, database, incoming, 0o600);
    const problems = integrityProblems(incoming);
    if (problems.length > 0) throw new BackupError(`the database in ${file} fails PRAGMA integrity_check (${problems[0]})`);

    const archivedMasterKey = byName.get(`${KEYS}/master.key`);
    const masterKey = config.masterKey ?? (archivedMasterKey ? (await readEntry(archive, archivedMasterKey)).toString('utf8') : null);
    await requireMasterKeyOpens(incoming, masterKey, config.masterKey ? 'MASTER_KEY' : `the backup's ${KEYS}/master.key`);
    const db = openReadOnly(incoming);
    let pending: string[];
    try {
      const newer = await unknownMigrations(db);
      if (newer.length > 0) throw new BackupError(`the database was migrated by a newer version (${newer.join(', ')}): restore it with that version`);
      pending = await pendingMigrations(db);
    } finally {
      await db.destroy();
    }

    const keys = entries.filter((entry) => isKeyEntry(entry.name));
    if (keys.length > 0) makeDirectory(path.join(dataDir, KEYS), 0o700);
    for (const key of keys) {
      const destination = path.join(dataDir, key.name);
      made.push(destination);
      await extractTo(archive, key, destination, 0o600);
    }
    fs.renameSync(incoming, databaseFile);
    made.push(databaseFile);

    say(`Restored ${file} (made ${manifest.created_at} by version ${manifest.app_version}) into ${databaseFile}${keys.length ? ` and ${keys.map((key) => path.join(dataDir, key.name)).join(', ')}` : ''}.`);
    if (pending.length > 0) say(`${pending.length} migration(s) of this version will run when the server starts (or npm run migrate).`);
    for (const name of manifest.keys_from_environment ?? []) say(`${name} came from the environment when the backup was made: set the same ${name} before starting the server.`);
  } catch (error) {
    for (const name of made.reverse()) fs.rmSync(name, { recursive: true, force: true });
    throw error;
  }
}
