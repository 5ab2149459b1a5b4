// npm run import -- --project PROJECT_KEY [--dry-run] [--firebase-params FILE] [--format native|auth0|firebase|supabase|clerk|cognito] FILE
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { FirebaseParamsHeaderSchema, IMPORT_FORMATS, type ImportFormat } from '../../shared/schemas/user-import.js';
import { ConfigError, loadConfig } from '../config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { AppError } from '../errors.js';
import { systemClock } from '../lib/clock.js';
import { createBcryptHasher } from '../lib/passwords.js';
import { createSecretBox, loadOrCreateMasterKey } from '../lib/secret-box.js';
import { parseInput } from '../lib/validate.js';
import { findProjectByKey } from '../modules/projects/projects.repo.js';
import { createImportJob, getImportJob, runImportJob, type ImportOptions } from '../modules/user-transfer/import.service.js';
import { readerFor, typeOfFile } from '../modules/user-transfer/readers/for-format.js';

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
  const firebaseParams = values['firebase-params'] ? parseInput(FirebaseParamsHeaderSchema, JSON.parse(await readFile(values['firebase-params'], 'utf8'))) : null;
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
    await runImportJob(deps, job, firebaseParamsId, options, readerFor(format as ImportFormat, typeOfFile(file))!, createReadStream(file));
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

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else if (error instanceof AppError) console.error(error.detail);
    else console.error(error);
    process.exit(1);
  });
