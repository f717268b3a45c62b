import { failure, success, type Outcome } from "../problems.ts";
import { checkState } from "./check-state.ts";
import type { RawRecordValidator } from "./raw-record-validator.ts";
import { namedState, STATE_NAMES } from "./named-states.ts";
import type { Database } from "./records.ts";

/** A state chosen by a test: its name (a shipped one's, or `"given"` for records) and what builds a fresh copy. */
export interface ChosenState {
  name: string;
  build: () => Database;
}

/** What {@link chooseState} builds with. */
export interface ChooseStateDeps {
  /** A fresh copy of the fixtures the shipped states are made from, already finished (configured accounts in place). */
  fixtures: () => Database;
  /**
   * The check of one record against its collection's stored shape (the raw routes' check). Without it, a state
   * is a shipped name only, and records are refused with `recordsRefused`.
   */
  validate: RawRecordValidator | undefined;
  /** Why records are refused when there is no check for them (what the host offers instead). */
  recordsRefused?: string;
  /** What the mock does to a state given as records (configured accounts in place of the state's). */
  finish: (state: Database) => Database;
}

/**
 * A state as a test names or gives it, from a plain JSON value, in any host: a shipped state's name
 * (named-states.ts), or a state's records (check-state.ts). Records are checked once, here; each build is a copy,
 * so the mock never changes what the test gave.
 */
export function chooseState(given: unknown, deps: ChooseStateDeps): Outcome<ChosenState> {
  if (typeof given === "string") {
    const named = namedState(given);
    if (!named) {
      return failure(
        "invalidState",
        `No state is named ${JSON.stringify(given.slice(0, 100))}; the shipped states are ` +
          `${STATE_NAMES.join(", ")}, and a state of your own is given as its records.`,
      );
    }
    // Made from fixtures already finished: finishing twice would number configured accounts without a uid anew.
    return success({ name: given, build: () => named.build(deps.fixtures()) });
  }
  if (!deps.validate)
    return failure("invalidState", deps.recordsRefused ?? "This mock takes a shipped state's name only.");
  const checked = checkState(given, deps.validate);
  if (!checked.ok) return checked;
  return success({ name: "given", build: () => deps.finish(structuredClone(checked.value)) });
}
