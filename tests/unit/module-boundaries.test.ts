import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The allowed direction of imports between the server's folders, written down in .dependency-cruiser.cjs
 * (no folder cycles, lib/ and db/ at the bottom, rest/ importing no area with routes, repos below services,
 * transports on top): any import against it fails here, naming the rule, the two files and, for a cycle,
 * the folders it runs through.
 */
describe('module boundaries', () => {
  it('server/ imports only in the allowed directions, with no cycle between its folders', { timeout: 60_000 }, async () => {
    const config = createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration & { forbidden: NonNullable<IConfiguration['forbidden']> };
    // Paths in the rules and results are relative to the repository, wherever vitest runs from.
    const reporterOutput = await cruise(['server'], { ...config.options, baseDir: ROOT, validate: true, ruleSet: { forbidden: config.forbidden } });
    const result = reporterOutput.output as ICruiseResult;
    const violations = result.summary.violations.map((v) =>
      [`${v.rule.name}: ${v.from} -> ${v.to}`, v.cycle ? ` (cycle: ${v.cycle.map((step) => step.name).join(' -> ')})` : ''].join(''),
    );
    expect(violations).toEqual([]);
    // The cruise saw the server, not an empty folder.
    expect(result.summary.totalCruised).toBeGreaterThan(150);
  });
});
