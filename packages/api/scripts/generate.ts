import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { createTestApp } from '../../../tests/helpers/create-test-app.js';

/**
 * packages/api/src/openapi.ts (@authplatform/api): the types of the document the server answers at GET /api/openapi.json, read
 * from a real app built in-process (npm run sdk:generate). The file is committed; a test fails
 * when it no longer matches the server's document.
 */

export const TYPES_FILE = fileURLToPath(new URL('../src/openapi.ts', import.meta.url));

/** The server's OpenAPI document, as GET /api/openapi.json serves it. */
export async function fetchOpenApiDocument(): Promise<OpenAPI3> {
  const t = await createTestApp();
  try {
    const response = await t.call('GET', '/api/openapi.json');
    if (response.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${response.statusCode}: ${response.body}`);
    return response.json();
  } finally {
    await t.close();
  }
}

export async function generateTypes(document?: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document ?? (await fetchOpenApiDocument()), { silent: true });
  return COMMENT_HEADER.replace('openapi-typescript', 'openapi-typescript (npm run sdk:generate)') + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(TYPES_FILE, await generateTypes());
  console.log(`wrote ${TYPES_FILE}`);
}
