/**
 * A state file that cannot be used: the message names the file (and the line, when one is at fault). In a module
 * of its own, without `node:` imports, so that the host-neutral core can tell it from a bug (create-mock-core.ts).
 */
export class StateFileError extends Error {
  override readonly name = "StateFileError";
}
