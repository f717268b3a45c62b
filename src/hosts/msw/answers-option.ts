import type { AnswersDocument } from "../../contract/usage/answers-document.ts";
import { checkAnswers } from "../../mock/answers/check-answers.ts";

/**
 * The `answers` of a handler set or a server: the option (the document, or its JSON text), else, in Node for a
 * mock that records usage, the file `MOCK_ANSWERS` names, so that a suite set up to record its usage serves a
 * service's answers with no change to it (what `property-listing-contract --rerun` sets). In a browser there is no
 * environment: the page gives the option. A mistake throws a TypeError naming the option or the file.
 */
export function answersOption(
  given: unknown,
  records: { consumer: string } | undefined,
  caller: string,
  label = '"answers"',
): AnswersDocument | undefined {
  let source = label;
  let value = given;
  if (value === undefined) {
    const file = records ? environment()?.MOCK_ANSWERS : undefined;
    if (!file) return undefined;
    source = `MOCK_ANSWERS (${file})`;
    const fs = nodeFs();
    if (!fs) return undefined;
    try {
      value = fs.readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new TypeError(
        `${caller}: ${source}: cannot read it: ${code === "ENOENT" ? "no such file" : (error as Error).message}`,
      );
    }
  }
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new TypeError(`${caller}: ${source} is not JSON: ${(error as Error).message}`);
    }
  }
  const checked = checkAnswers(value);
  if (!checked.ok) throw new TypeError(`${caller}: ${source} is refused: ${checked.problem}`);
  if (records && checked.answers.consumer !== records.consumer) {
    throw new TypeError(
      `${caller}: ${source} answers the usage of ${JSON.stringify(checked.answers.consumer)}, ` +
        `not of ${JSON.stringify(records.consumer)} (usage.consumer).`,
    );
  }
  return checked.answers;
}

function environment(): Record<string, string | undefined> | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
}

/** `node:fs` where the handlers run in Node, without an import a browser bundle would have to resolve. */
function nodeFs(): { readFileSync(file: string, encoding: "utf8"): string } | undefined {
  const processObject = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
  return processObject?.getBuiltinModule?.("node:fs") as
    | { readFileSync(file: string, encoding: "utf8"): string }
    | undefined;
}
