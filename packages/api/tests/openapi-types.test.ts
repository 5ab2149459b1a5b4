import fs from 'node:fs';
import { expect, it } from 'vitest';
import { generateTypes, TYPES_FILE } from '../scripts/generate.js';

it("packages/api/src/openapi.ts is generated from the server's current document (else: npm run sdk:generate)", async () => {
  expect(fs.readFileSync(TYPES_FILE, 'utf8'), 'packages/api/src/openapi.ts is out of date: run npm run sdk:generate').toBe(await generateTypes());
});
