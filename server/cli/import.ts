// npm run import -- --project PROJECT_KEY [--dry-run] [--firebase-params FILE] [--format native|auth0|firebase|supabase|clerk|cognito] FILE
import { constants, createReadStream } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { FirebaseParamsHeaderSchema, IMPORT_FORMATS, importFileType, type ImportFormat } from '../../shared/schemas/user-import.js';
import type { FirebaseScryptParams } from '../../shared/schemas/user-transfer.js';
import { ConfigError, loadConfig } from '../config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { AppError } from '../errors.js';
import { systemClock } from '../lib/clock.js';
import { createBcryptHasher } from '../lib/passwords.js';
import { createSecretBox, loadOrCreateMasterKey } from '../lib/secret-box.js';
import { findProjectByKey } from '../modules/projects/projects.repo.js';
import { createImportJob, getImportJob, runImportJob, type ImportOptions } from '../modules/user-transfer/import.service.js';
import { readerFor } from '../modules/user-transfer/readers/for-format.js';

const USAGE = 'Usage: npm run import -- --project PROJECT_KEY [--dry-run] [--firebase-params FILE.json] [--format native|auth0|firebase|supabase|clerk|cognito] FILE (.json: JSON, .csv: CSV; otherwise NDJSON)';

/**
 * The import of POST /api/v1/projects/{id}/users/import, run on the configured database without the server: the same
 * job (its progress readable from the API meanwhile), the same lines and checks. Firebase's parameters come from a
 * file, never the command line (which other users of the machine can see).
 */
async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { project: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'firebase-params': { type: 'string' }, format: { type: 'string' } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const format = values.format ?? 'native';
  if (!values.project || positionals.length !== 1 || !(IMPORT_FORMATS as readonly string[]).includes(format)) {
    console.error(USAGE);
    return 2;
  }
  const file = positionals[0]!;
  if (!(await isReadableFile(file))) {
    console.error(`Cannot read ${file}: no such file, or not a readable file`);
    return 1;
  }
  const firebaseParams = values['firebase-params'] ? await readFirebaseParams(values['firebase-params']) : null;
  if (firebaseParams instanceof Error) {
    console.error(firebaseParams.message);
    return 1;
  }
  const reader = readerFor(format as ImportFormat, importFileType(file));
  if (!reader) {
    console.error(`${file}: a native import reads NDJSON or a JSON array (.json); a provider's CSV needs --format supabase, clerk or cognito`);
    return 2;
  }
  const config = loadConfig();
  const { db } = connectDatabase(config.database);
  try {
    await migrateToLatest(db);
    const project = await findProjectByKey(db, values.project);
    if (!project) {
      console.error(`No project with the key ${values.project}`);
      return 1;
    }
    const deps = {
      db,
      clock: systemClock,
      passwords: createBcryptHasher(config.bcryptCost),
      secretBox: createSecretBox(loadOrCreateMasterKey({ base64: config.masterKey, dataDir: config.dataDir })),
      logger: { error: (object: object, message: string) => console.error(message, object) },
    };
    const options: ImportOptions = {
      projectId: project.id,
      dryRun: values['dry-run'] ?? false,
      format,
      source: 'cli',
      firebaseParams,
      actor: { user: { id: null, email: null }, info: { ip: '127.0.0.1', network: '127.0.0.1', userAgent: 'npm run import', headers: {}, client: 'dashboard' } },
    };
    const { job, firebaseParamsId } = await createImportJob(deps, options);
    console.error(`Import ${job.id} into ${project.name}${options.dryRun ? ' (dry run)' : ''}…`);
    await runImportJob(deps, job, firebaseParamsId, options, reader, createReadStream(file));
    const result = await getImportJob(deps, project.id, job.id);
    for (const error of result.errors) console.log(`line ${error.line}: ${error.reason}`);
    if (result.errors_not_listed > 0) console.log(`… and ${result.errors_not_listed} more failed lines`);
    console.error(
      `${result.state}: ${result.lines_read} lines read, ${result.created} users ${options.dryRun ? 'would be created' : 'created'}, ${result.failed} failed${result.failure ? ` (${result.failure})` : ''}`,
    );
    if (result.state === 'failed') return 1;
    return result.failed > 0 ? 3 : 0;
  } finally {
    await db.destroy();
  }
}

async function isReadableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.R_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Firebase's parameters from their file, or the one line that says what is wrong with it. */
async function readFirebaseParams(file: string): Promise<FirebaseScryptParams | Error> {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return new Error(`Cannot read ${file}: no such file, or not a readable file`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new Error(`${file} must be JSON: {"signer_key", "salt_separator", "rounds", "mem_cost"}`);
  }
  const parsed = FirebaseParamsHeaderSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return new Error(`${file}: ${issue.path.join('.') || 'the parameters'}: ${issue.message}`);
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else if (error instanceof AppError) console.error(error.detail);
    else console.error(error);
    process.exit(1);
  });
