import { failure, success, type FieldError, type Outcome } from "../problems.ts";
import type { RawRecordValidator } from "./raw-record-validator.ts";
import { COLLECTIONS, type Database } from "./records.ts";
import { escapeToken } from "../../spec/json-pointer.ts";

/** The most offending places a refusal lists; past them it says there are more. */
const MAX_ERRORS = 20;

/**
 * A state as a test gives it (`--state <file>`, `POST /__admin/state`, `mock.useState(value)`), from a plain JSON
 * value: an object with the collections of `fixtures/db.json` (`accounts`, `properties`, `agents`, `documents`;
 * one left out is empty), which is also what `GET /__db/db` answers, so a state set up through the API can be
 * saved and loaded again. Every record is checked against the stored shape of its collection (the check of a raw
 * write), and the ids the store indexes by must be unique: a record's id in its collection, a nid across
 * properties, agents and documents, and an account's API key. Nothing is applied unless all of it is right;
 * every offending place is listed (the first {@link MAX_ERRORS}).
 */
export function checkState(value: unknown, validate: RawRecordValidator): Outcome<Database> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return failure(
      "invalidState",
      `A state is a JSON object with ${COLLECTIONS.join(", ")} (each an array of records, as GET /__db/db answers).`,
      [{ in: "body", pointer: "", detail: "must be an object" }],
    );
  }
  const given = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  const wrong = (pointer: string, detail: string) => errors.push({ in: "body", pointer, detail });
  for (const key of Object.keys(given)) {
    if (!(COLLECTIONS as readonly string[]).includes(key))
      wrong(`/${escapeToken(key.slice(0, 100))}`, `is not a collection of a state (${COLLECTIONS.join(", ")})`);
    if (errors.length >= MAX_ERRORS) break;
  }
  const state: Database = { accounts: [], properties: [], agents: [], documents: [] };
  const nids = new Map<number, string>();
  const apiKeys = new Set<string>();
  for (const collection of COLLECTIONS) {
    const records = given[collection];
    if (records === undefined) continue;
    if (!Array.isArray(records)) {
      wrong(`/${collection}`, "must be an array of records");
      continue;
    }
    const ids = new Set<number>();
    for (let at = 0; at < records.length && errors.length < MAX_ERRORS; at += 1) {
      const place = `/${collection}/${at}`;
      const check = validate(collection, records[at]);
      if (!check.ok) {
        for (const error of check.errors) wrong(`${place}${error.pointer}`, error.detail);
        continue;
      }
      const record = check.record as { id: number; apiKey?: string };
      if (ids.has(record.id)) wrong(`${place}/id`, `is taken: another record of ${collection} has the id ${record.id}`);
      ids.add(record.id);
      if (collection !== "accounts") {
        const holder = nids.get(record.id);
        if (holder !== undefined && holder !== collection)
          wrong(`${place}/id`, `is taken: nids are one sequence, and ${holder} has ${record.id}`);
        nids.set(record.id, collection);
      } else {
        if (apiKeys.has(record.apiKey!)) wrong(`${place}/apiKey`, "is taken: an API key opens one account");
        apiKeys.add(record.apiKey!);
      }
      (state[collection] as unknown[]).push(record);
    }
  }
  if (errors.length > 0) {
    // The check stops once it has found enough to show: past them there may be more.
    const count =
      errors.length >= MAX_ERRORS
        ? `at least ${MAX_ERRORS} places are wrong (the first ${MAX_ERRORS} shown)`
        : errors.length === 1
          ? "1 place is wrong"
          : `${errors.length} places are wrong`;
    return failure("invalidState", `The state is refused, nothing was changed: ${count}.`, errors.slice(0, MAX_ERRORS));
  }
  return success(state);
}
