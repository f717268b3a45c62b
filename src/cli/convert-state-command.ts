import { DEFAULT_FIXTURES_PATH, loadFixtures } from "../hosts/node/state/load-fixtures.ts";
import { convertState } from "../hosts/node/state/convert-state.ts";
import { COLLECTIONS } from "../mock/store/records.ts";

export const CONVERT_USAGE = `Usage: property-listing-mock --convert-state <from> <to> [--fixtures <file>]

Writes the state in <from> to <to>, in the form <to>'s name says: JSON Lines for a name
ending in .jsonl or .ndjson (the large-state form, read a line at a time), else one JSON
document in json-server's db.json shape. <from> is left as it is; <to> must not exist.
A --db state (a <from>.journal beside it) is converted whole: its journal replayed, its id
sequences and auto-login secret kept; a reset in its journal replays --fixtures (default
fixtures/db.json). Exit 0 once <to> is written and synced, 2 when it cannot be.`;

/** `property-listing-mock --convert-state <from> <to>`: the exit code. */
export function convertStateCommand(argv: readonly string[]): number {
  if (argv.includes("--help")) {
    console.log(CONVERT_USAGE);
    return 0;
  }
  const args = [...argv];
  let fixtures = DEFAULT_FIXTURES_PATH;
  const at = args.indexOf("--fixtures");
  if (at !== -1) {
    if (args[at + 1] === undefined) return usageError("--fixtures needs a file name");
    fixtures = args.splice(at, 2)[1]!;
  }
  if (args.length !== 2 || args.some((arg) => arg.startsWith("--") || arg === "")) {
    return usageError("--convert-state takes two file names: the state to read, and the file to write");
  }
  const [from, to] = args as [string, string];
  try {
    const converted = convertState(from, to, () => loadFixtures(fixtures));
    const counts = COLLECTIONS.map((name) => `${converted.records[name]} ${name}`).join(", ");
    const form = converted.format === "lines" ? "JSON Lines" : "one JSON document";
    console.log(
      `Wrote ${to} (${form}): ${counts}, from ${converted.fromDb ? `the --db state ${from} and its journal` : from}.`,
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
}

function usageError(message: string): number {
  console.error(`${message}\n\n${CONVERT_USAGE}`);
  return 2;
}
