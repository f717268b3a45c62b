/**
 * The two forms a state file takes, chosen by its name: a file named `.jsonl` or `.ndjson` is JSON Lines, one
 * record a line, the large-state form (store/state-lines.ts); any other is one JSON document in json-server's
 * `db.json` shape. The mock writes a state in the form its name says, and changes it only when asked
 * (`--convert-state`).
 */
export type StateFormat = "lines" | "document";

/** The form a file's name says. */
export function stateFormatOf(path: string): StateFormat {
  return /\.(?:jsonl|ndjson)$/i.test(path) ? "lines" : "document";
}
