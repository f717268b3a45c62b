/**
 * Writes the mock's seed data (`npm run fixtures -- --seed 42 --properties 30 --out fixtures/db.json`).
 * With no arguments it regenerates the committed `fixtures/db.json`, which a test compares with the generator.
 * Bad arguments: a message on stderr and exit code 2.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultFixturesModule } from "../src/fixtures/default-fixtures-module.ts";
import { generateFixtures } from "../src/fixtures/generate-fixtures.ts";
import { FIXTURES_USAGE, parseFixtureArgs } from "../src/fixtures/parse-fixture-args.ts";
import { stateLines } from "../src/mock/store/state-lines.ts";

function main(args: readonly string[]): number {
  const parsed = parseFixtureArgs(args);
  if (!parsed.ok) {
    console.error(`fixtures: ${parsed.message}\n\n${FIXTURES_USAGE}`);
    return 2;
  }
  const { seed, properties, out, help } = parsed.command;
  if (help) {
    console.log(FIXTURES_USAGE);
    return 0;
  }
  const db = generateFixtures({ seed, properties });
  const target = resolve(out);
  mkdirSync(dirname(target), { recursive: true });
  // A large state reads best in JSON Lines (docs/large-stores.md).
  const text = target.endsWith(".jsonl") ? [...stateLines(db)].join("") : `${JSON.stringify(db, null, 2)}\n`;
  writeFileSync(target, text);
  // The committed fixtures also ship as a module, for the browser module (it reads no file).
  if (target === fileURLToPath(new URL("../fixtures/db.json", import.meta.url))) {
    writeFileSync(
      fileURLToPath(new URL("../src/generated/default-fixtures.ts", import.meta.url)),
      defaultFixturesModule(text),
    );
  }
  console.log(
    `wrote ${out}: ${db.accounts.length} accounts, ${db.properties.length} properties, ` +
      `${db.agents.length} agents, ${db.documents.length} documents (seed ${seed})`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
