/**
 * `--db` state files through the mock's process: a file keeps the form its name says (a json-server `db.json`
 * stays that document, a `.jsonl` snapshot JSON Lines), nothing is written at start, a snapshot that is not whole
 * is refused and left byte for byte, and `--convert-state` converts between the two forms when asked.
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { killAll, PACKAGE_ROOT, startMockBin, startProcess, type StartedProcess } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));
const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const tempDir = () => scratchFolder("plk-files-");
const FIXTURES = join(PACKAGE_ROOT, "fixtures", "db.json");
const hash = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const run = async (args: string[]) => {
  const process = startProcess("node", ["dist/cli/mock.js", ...args]);
  started.push(process);
  const code = await process.exited;
  return { code, output: process.output() };
};
const create = async (url: string, street: string) => {
  const response = await fetch(`${url}/api/v1/object/property`, {
    method: "POST",
    headers,
    body: JSON.stringify({ street, city: "Austin", state: "TX", zip: "78701" }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { nid: string; uri: string };
};
const stop = async (process: StartedProcess) => {
  process.signal("SIGTERM");
  expect(await process.exited).toBe(0);
};

/** The snapshots the mock wrote, by file name: each form is written once for the file. */
const snapshots = new Map<string, Promise<string>>();

/**
 * A mock-written snapshot of the default fixtures with one change folded in, in the form `name` says: a copy, in a
 * folder of its own, of the one the mock wrote for this file (its files byte for byte), for the caller to start
 * the mock on, change or damage.
 */
async function writtenSnapshot(name: string): Promise<string> {
  let written = snapshots.get(name);
  if (!written) {
    written = writeSnapshot(name);
    snapshots.set(name, written);
  }
  const source = dirname(await written);
  const dir = tempDir();
  for (const file of readdirSync(source)) copyFileSync(join(source, file), join(dir, file));
  return join(dir, name);
}

/** The snapshots' folders: kept for the file's tests, removed after them. */
const snapshotFolders: string[] = [];
afterAll(() => {
  for (const folder of snapshotFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function writeSnapshot(name: string): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "plk-files-"));
  snapshotFolders.push(folder);
  const db = join(folder, name);
  // A first start writes the seed as the snapshot; a small --db-compact-after folds the change into it.
  const first = await startMockBin(started, ["--db", db, "--db-compact-after", "1"], {}, /Restored|Seeded/);
  await create(first.url, "1 Snapshot St");
  await first.process.waitForOutput(/Compacted the journal/);
  await stop(first.process);
  return db;
}

describe("a --db state file keeps its form", () => {
  it("a copy of fixtures/db.json stays a JSON document across starts and changes; the changes are kept", async () => {
    const dir = tempDir();
    const db = join(dir, "state.json");
    copyFileSync(FIXTURES, db);
    const before = hash(db);
    const first = await startMockBin(started, ["--db", db], {}, /Restored/);
    expect(hash(db), "nothing written at start").toBe(before);
    const created = await create(first.url, "1 Kept St");
    await stop(first.process);
    // The change is in the journal; the file is still json-server's db.json, as it was.
    expect(hash(db)).toBe(before);
    expect(Object.keys(JSON.parse(readFileSync(db, "utf8")))).toEqual([
      "accounts",
      "properties",
      "agents",
      "documents",
    ]);
    const journal = readFileSync(`${db}.journal`, "utf8").split("\n");
    expect(journal[0]).toMatch(/^\{"s":0,"secret":"[0-9a-f]{64}"\}$/);

    const second = await startMockBin(started, ["--db", db], {}, /Restored/);
    expect((await fetch(`${second.url}/api/v1/object/property/${created.nid}`, { headers })).status).toBe(200);
    // The auto-login link of the change is still valid: the secret the journal gave is the state's.
    expect((await fetch(`${second.url}${new URL(created.uri).pathname}`)).status).toBe(200);
    await stop(second.process);
    expect(hash(db)).toBe(before);
  });

  it("a snapshot the mock writes is in the form its name says, and is left as it is by the next start", async () => {
    const json = await writtenSnapshot("db.json");
    const document = JSON.parse(readFileSync(json, "utf8")) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(["accounts", "properties", "agents", "documents", "$meta"]);
    expect(JSON.stringify(document.properties)).toContain("1 Snapshot St");
    const lines = await writtenSnapshot("db.jsonl");
    const last = JSON.parse(readFileSync(lines, "utf8").trimEnd().split("\n").at(-1)!) as {
      $meta: { records: Record<string, number>; crc32: number };
    };
    expect(last.$meta.records.properties).toBe((document.properties as unknown[]).length);
    for (const db of [json, lines]) {
      const before = hash(db);
      const again = await startMockBin(started, ["--db", db], {}, /Restored/);
      await stop(again.process);
      expect(hash(db)).toBe(before);
    }
  });
});

describe("a snapshot that is not whole is refused, and left byte for byte", () => {
  /** The snapshot damaged by `damage`, then given to the mock: its exit code and output, the file unchanged. */
  async function refused(db: string, damage: (text: string) => string, line: RegExp): Promise<void> {
    writeFileSync(db, damage(readFileSync(db, "utf8")));
    const before = hash(db);
    const { code, output } = await run(["--port", "0", "--quiet", "--db", db]);
    expect(code, output).toBe(1);
    expect(output).toMatch(line);
    expect(output).toContain(db);
    expect(hash(db)).toBe(before);
    expect(readdirSync(join(db, "..")).sort()).toEqual(
      [db.split("/").at(-1)!, `${db.split("/").at(-1)!}.journal`].sort(),
    );
  }

  it("JSON Lines: cut in half or at a line's end, torn, not JSON, removed, a byte changed, no last line", async () => {
    const db = await writtenSnapshot("db.jsonl");
    const pristine = readFileSync(db, "utf8");
    const lines = pristine.trimEnd().split("\n");
    const count = lines.length;
    const damages: Array<[string, (text: string) => string, RegExp]> = [
      [
        "cut in half",
        (text) =>
          Buffer.from(text)
            .subarray(0, Buffer.byteLength(text) / 2)
            .toString("utf8"),
        /line \d+ is not valid JSON/,
      ],
      [
        "cut at a line's end",
        () => `${lines.slice(0, 20).join("\n")}\n`,
        /line 20: the snapshot ends without its last line/,
      ],
      [
        "its last line missing",
        () => `${lines.slice(0, -1).join("\n")}\n`,
        new RegExp(`line ${count - 1}: the snapshot ends without its last line`),
      ],
      [
        "a line that is not JSON",
        () => `${[...lines.slice(0, 5), "garbage", ...lines.slice(5)].join("\n")}\n`,
        /line 6 is not valid JSON/,
      ],
      [
        "a line removed",
        () => `${[...lines.slice(0, 5), ...lines.slice(6)].join("\n")}\n`,
        new RegExp(`line ${count - 1}: the lines before it do not hold the records it counts`),
      ],
      [
        "a byte changed",
        (text) => text.replace('"1 Snapshot St"', '"1 Snapshot Su"'),
        new RegExp(`line ${count}: the lines before it do not match its checksum`),
      ],
      [
        "a line after the last",
        (text) => `${text}{"properties":{"id":99999,"uid":1}}\n`,
        new RegExp(`line ${count + 1} follows the state's last line`),
      ],
    ];
    for (const [, damage, line] of damages) {
      writeFileSync(db, pristine);
      await refused(db, damage, line);
    }
  });

  it("a JSON document cut short, wherever it is cut", async () => {
    const db = await writtenSnapshot("db.json");
    const pristine = readFileSync(db);
    for (const fraction of [0.5, 0.9, 0.999]) {
      writeFileSync(db, pristine);
      truncateSync(db, Math.floor(pristine.length * fraction));
      await refused(db, (text) => text, /line \d+(:| is not valid JSON)/);
    }
    writeFileSync(db, pristine);
    // Cut after a record's line: every line is whole, the document is not closed.
    await refused(
      db,
      (text) => `${text.split("\n").slice(0, 8).join("\n")}\n`,
      /line 9: the JSON document ends before it is closed/,
    );
  });

  it("only a torn last journal line is dropped, and the banner says so", async () => {
    const db = await writtenSnapshot("db.jsonl");
    const first = await startMockBin(started, ["--db", db], {}, /Restored/);
    const created = await create(first.url, "2 Journal St");
    await stop(first.process);
    writeFileSync(`${db}.journal`, `${readFileSync(`${db}.journal`, "utf8")}{"s":99,"m":{"id":1,`);
    const second = await startMockBin(started, ["--db", db], {}, /Restored/);
    expect(second.process.output()).toMatch(/Restored .*; Ignored a torn last journal line/);
    expect((await fetch(`${second.url}/api/v1/object/property/${created.nid}`, { headers })).status).toBe(200);
  });
});

describe("--convert-state", () => {
  it("converts a --db state between its two forms, keeping records, journal and meta; input left as is", async () => {
    const db = await writtenSnapshot("db.json");
    const first = await startMockBin(started, ["--db", db], {}, /Restored/);
    const created = await create(first.url, "3 Convert St");
    await stop(first.process);
    const before = hash(db);
    const lines = join(tempDir(), "state.jsonl");
    const converted = await run(["--convert-state", db, lines]);
    expect(converted.code, converted.output).toBe(0);
    expect(converted.output).toMatch(
      new RegExp(
        /^Wrote .*state\.jsonl \(JSON Lines\): 2 accounts, \d+ /.source +
          /properties, \d+ agents, \d+ documents, from the --db state/.source,
      ),
    );
    expect(hash(db)).toBe(before);
    const back = join(tempDir(), "back.json");
    expect((await run(["--convert-state", lines, back])).code).toBe(0);
    for (const file of [lines, back]) {
      const mock = await startMockBin(started, ["--db", file], {}, /Restored/);
      expect((await fetch(`${mock.url}/api/v1/object/property/${created.nid}`, { headers })).status).toBe(200);
      expect((await fetch(`${mock.url}${new URL(created.uri).pathname}`)).status).toBe(200);
      await stop(mock.process);
    }
    // A file of records a person wrote converts too: no meta, the trailer's counts alone.
    const records = join(tempDir(), "records.jsonl");
    expect((await run(["--convert-state", FIXTURES, records])).code).toBe(0);
    expect(JSON.parse(readFileSync(records, "utf8").trimEnd().split("\n").at(-1)!).$meta).toEqual({
      records: expect.any(Object),
      crc32: expect.any(Number),
    });
  });

  it("refuses, exit 2 and a clear line, to overwrite a file, a missing or damaged input, other arguments", async () => {
    const db = await writtenSnapshot("db.jsonl");
    const before = hash(db);
    const other = join(tempDir(), "other.json");
    writeFileSync(other, "{}");
    const cases: Array<[string[], RegExp]> = [
      [[db, db], /Cannot convert .* into itself/],
      [[db, other], /Will not overwrite .*other\.json: it exists/],
      [[join(tempDir(), "missing.json"), join(tempDir(), "out.json")], /there is no such file/],
      [[db], /takes two file names/],
      [[db, "--port", "1"], /takes two file names/],
    ];
    for (const [args, message] of cases) {
      const { code, output } = await run(["--convert-state", ...args]);
      expect(code, output).toBe(2);
      expect(output).toMatch(message);
    }
    expect(hash(db)).toBe(before);
    expect(readFileSync(other, "utf8")).toBe("{}");
    writeFileSync(db, `${readFileSync(db, "utf8").split("\n").slice(0, 3).join("\n")}\n`);
    const out = join(tempDir(), "out.json");
    const damaged = await run(["--convert-state", db, out]);
    expect(damaged.code).toBe(2);
    expect(damaged.output).toMatch(/line 3: the snapshot ends without its last line/);
    expect(existsSync(out)).toBe(false);
    expect((await run(["--convert-state", "--help"])).output).toContain(
      "Usage: property-listing-mock --convert-state <from> <to>",
    );
  });
});
