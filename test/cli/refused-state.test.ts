/**
 * A state the mock cannot hold, given at start, as a user starts the mock: the bin stops with exit code 2 and one
 * line naming the file, the collection, the record and what is wrong, and no stack trace, where it used to start
 * and crash once the record's answer was encoded (issue 32 follow-up). The files are left as they are.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAll, startProcess, type StartedProcess } from "../support/start-process.ts";
import { propertyNesting, stateText } from "../support/unheld-records.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));

const tempFile = (name: string, content: string) => {
  const file = join(scratchFolder("plk-refused-"), name);
  writeFileSync(file, content);
  return file;
};

/**
 * Starts the bin and waits for it to stop, or to listen (a start that was not refused: the test then fails on the
 * code).
 */
async function start(args: string[]): Promise<{ code: number | string; output: string }> {
  const mock = startProcess(process.execPath, ["dist/cli/mock.js", "--port", "0", "--quiet", ...args]);
  started.push(mock);
  const code = await Promise.race([
    mock.exited,
    mock.waitForOutput(/listening on/).then(
      () => "listening",
      () => mock.exited,
    ),
  ]);
  return { code, output: mock.output() };
}

/** The one line a refusal prints, and no stack trace. */
function expectRefusal(run: { code: number | string; output: string }, line: string): void {
  expect(run.code, run.output).toBe(2);
  expect(run.output.trim()).toBe(line);
}

describe("--fixtures holding a record the mock cannot hold", () => {
  it.each([
    ["a property that is an array", stateText({ properties: ["[1]"] }), "properties[0] is an array, not an object"],
    [
      "a property that is a number",
      stateText({ properties: [propertyNesting(2), "7"] }),
      "properties[1] is a number, not an object",
    ],
    [
      "a property nested deeper than 64 levels",
      stateText({ properties: [propertyNesting(2), propertyNesting(65, 1002)] }),
      "properties[1] (id 1002): nesting deeper than 64 levels",
    ],
    [
      "a property whose id is not an integer",
      stateText({ properties: ['{"id":1.5,"uid":1}'] }),
      'properties[0]: "id" is not an integer (1.5)',
    ],
    [
      "a property without an owner",
      stateText({ properties: ['{"id":1001,"title":"x"}'] }),
      'properties[0] (id 1001): no "uid"',
    ],
    [
      "a document whose id is not an integer",
      stateText({ properties: [propertyNesting(2)], documents: ['{"id":1004,"uid":1}', '{"id":"x","uid":1}'] }),
      'documents[1]: "id" is not an integer (a string)',
    ],
    [
      "an agent card nested deeper than 64 levels",
      stateText({ agents: [`{"id":1003,"uid":1,"bio":${"[".repeat(70)}${"]".repeat(70)}}`] }),
      "agents[0] (id 1003): nesting deeper than 64 levels",
    ],
    ["an account that is null", stateText({ accounts: ["null"] }), "accounts[0] is null, not an object"],
  ])("%s: exit 2, the file and the record named", async (_name, text, fault) => {
    const file = tempFile("fixtures.json", text);
    expectRefusal(
      await start(["--fixtures", file]),
      `The fixtures file ${file} holds a record the mock cannot hold, and is refused: ${fault}.`,
    );
  });

  it("a shipped state made from such fixtures (--state many-properties): exit 2, the fixtures file named", async () => {
    const file = tempFile("fixtures.json", stateText({ properties: [propertyNesting(65)] }));
    expectRefusal(
      await start(["--fixtures", file, "--state", "many-properties"]),
      `The fixtures file ${file} holds a record the mock cannot hold, and is refused: properties[0] (id ` +
        `1001): nesting deeper than 64 levels.`,
    );
  });
});

describe("--db holding a record the mock cannot hold", () => {
  it("a snapshot: exit 2, the snapshot and the record named, the file left as it is", async () => {
    const file = tempFile("state.json", stateText({ properties: [propertyNesting(3), propertyNesting(65, 1002)] }));
    const before = readFileSync(file);
    expectRefusal(
      await start(["--db", file]),
      `${file} holds a record the mock cannot hold, and is refused: properties[1] (id 1002): nesting deeper ` +
        `than 64 levels.`,
    );
    expect(readFileSync(file)).toEqual(before);
  });

  it("a snapshot the scan takes, with a document whose id is not an integer: exit 2, the document named", async () => {
    const file = tempFile(
      "state.json",
      stateText({ properties: [propertyNesting(3)], documents: ['{"id":1004,"uid":1}', '{"id":"1005","uid":1}'] }),
    );
    expectRefusal(
      await start(["--db", file]),
      `${file} holds a record the mock cannot hold, and is refused: documents[1]: "id" is not an integer (a string).`,
    );
  });

  it("a journal line, even the last one: exit 2, the journal's line named, the journal left as it is", async () => {
    const file = join(scratchFolder("plk-refused-"), "state.json");
    const line = (seq: number, record: string) =>
      `{"s":${seq},"m":{"id":3000,"uid":3,"tok":0},"put":"properties","r":${record}}\n`;
    writeFileSync(`${file}.journal`, line(1, propertyNesting(3, 2001)) + line(2, propertyNesting(65, 2002)));
    const before = readFileSync(`${file}.journal`);
    expectRefusal(
      await start(["--db", file]),
      `${file}.journal line 2 holds a record the mock cannot hold, and is refused: a record of properties ` +
        `(id 2002): nesting deeper than 64 levels.`,
    );
    expect(readFileSync(`${file}.journal`)).toEqual(before);
  });
});

describe("--state <file> holding a record the mock cannot hold", () => {
  it("is refused with exit 2, naming the file as it was given", async () => {
    const file = tempFile("state.json", stateText({ documents: ['{"id":"x"}'] }));
    const run = await start(["--state", file]);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(
      new RegExp(
        `^The state ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is refused, nothing was ` +
          `changed:\n[\\s\\S]*/documents/0/id`,
      ),
    );
    expect(run.output).not.toMatch(/^\s+at /m);
  });
});
