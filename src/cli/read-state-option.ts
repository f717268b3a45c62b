import { readFileSync } from "node:fs";
import { namedState, STATE_NAMES } from "../mock/store/named-states.ts";

/**
 * `--state` (`MOCK_STATE`) as the mock takes it: a shipped state's name as it is, or a JSON file's value, read
 * here at the edge so that the mock's core only ever sees plain data (it checks the records). Returns the state,
 * or a message saying what is wrong.
 */
export function readStateOption(text: string): { state: string | object; file?: string } | string {
  if (text === "") return `--state needs a shipped state (${STATE_NAMES.join(", ")}) or a JSON file`;
  if (namedState(text)) return { state: text };
  let content: string;
  try {
    content = readFileSync(text, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? `--state ${text} is neither a shipped state (${STATE_NAMES.join(", ")}) nor a file`
      : `Cannot read the state file ${text}: ${(error as Error).message}`;
  }
  try {
    const value: unknown = JSON.parse(content);
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return `${text} must hold a JSON object: a state's records, as GET /__db/db answers`;
    return { state: value, file: text };
  } catch (error) {
    return `${text} is not valid JSON: ${(error as Error).message}`;
  }
}
