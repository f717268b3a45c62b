/** Every `--help` text prints within 120 columns, the width the sources keep too: a terminal or a CI log wraps none. */
import { describe, expect, it } from "vitest";
import { CONVERT_USAGE } from "../../src/cli/convert-state-command.ts";
import { CONTRACT_USAGE } from "../../src/cli/parse-contract-args.ts";
import { MOCK_USAGE } from "../../src/cli/parse-mock-args.ts";

const texts = { MOCK_USAGE, CONTRACT_USAGE, CONVERT_USAGE };

describe("--help texts", () => {
  it.each(Object.entries(texts))("%s has no line over 120 characters, its values filled in", (_, text) => {
    const long = text.split("\n").filter((line) => line.length > 120);
    expect(long).toEqual([]);
  });
});
