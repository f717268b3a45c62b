/**
 * `--db file.json`: a snapshot and an append-only journal beside it. A change is answered once its journal line
 * is written and synced; a restart replays the journal; compaction folds it into the snapshot. (The crash test
 * with a real process and SIGKILL is test/e2e/db-crash.test.ts.)
 */
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  appendFileSync,
  copyFileSync,
} from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer, type MockServerOptions } from "../../src/hosts/node/create-mock-server.ts";
import type { JournalIo } from "../../src/hosts/node/state/state-journal.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const headers = { ...DEMO, "content-type": "application/json" };
const address = (street = "1 Main St") => ({ street, city: "Austin", state: "TX", zip: "78701" });
const tempDir = () => scratchFolder("plk-db-");
const start = (file: string, options: MockServerOptions = {}) =>
  createMockServer({ fixtures: tinyFixtures(), dbFile: file, contract: sharedContract(), log: () => {}, ...options });
/** The streets of the demo account's properties, in the store's order, from the raw records. */
const streets = async (app: Parameters<typeof request>[0]) =>
  ((await request(app).get("/__db/properties?uid=1").expect(200)).body as Array<{ street: string }>).map(
    (record) => record.street,
  );
const journalLines = (file: string) => readFileSync(`${file}.journal`, "utf8").split("\n").filter(Boolean);

/** Real writes, whose syncs wait until the test lets them go, or fail while `failing` is set. */
function heldIo() {
  const real = { write: [] as number[], sync: 0 };
  let release: (() => void) | undefined;
  let held = false;
  const begun: Array<{ count: number; resolve: () => void }> = [];
  const io = {
    failing: undefined as string | undefined,
    hold() {
      held = true;
    },
    let() {
      held = false;
      release?.();
    },
    calls: real,
    /** Resolves once `count` syncs in all have begun. */
    syncsBegun(count: number): Promise<void> {
      return real.sync >= count ? Promise.resolve() : new Promise((resolve) => begun.push({ count, resolve }));
    },
    io: {
      async write(fd, bytes, position) {
        if (io.failing) throw new Error(io.failing);
        real.write.push(bytes.length);
        const { writeSync } = await import("node:fs");
        writeSync(fd, bytes, 0, bytes.length, position);
      },
      async datasync() {
        real.sync += 1;
        for (const waiter of begun.filter((waiter) => real.sync >= waiter.count)) waiter.resolve();
        if (held) await new Promise<void>((resolve) => (release = resolve));
      },
    } satisfies JournalIo,
  };
  return io;
}

/** A whole agent record for a raw write (raw writes take the stored shape), without an id so it gets the next nid. */
function rawAgent(email: string): Record<string, unknown> {
  const { id: _id, ...fields } = tinyFixtures().agents[0]!;
  return { ...fields, uid: 2, email, agent_first_name: "R", agent_last_name: "W" };
}

describe("a --db state", () => {
  it("keeps every change made through the API, /__db and reset across a restart, and the nid sequence", async () => {
    const file = join(tempDir(), "db.json");
    const first = start(file);
    const { body: created } = await request(first.app)
      .post("/api/v1/object/property")
      .set(headers)
      .send(address())
      .expect(200);
    await request(first.app)
      .put(`/api/v1/object/property/${created.nid}`)
      .set(headers)
      .send({ title: "Edited" })
      .expect(200);
    const { body: agent } = await request(first.app)
      .post("/api/v1/object/agent_card/")
      .set(headers)
      .send({ agent_first_name: "A", agent_last_name: "B", email: "a@b.example" })
      .expect(200);
    await request(first.app)
      .delete(`/api/v1/object/agent_card/${Number(agent.nid)}`)
      .set(headers)
      .expect(200);
    await request(first.app).patch("/__db/properties/1002").send({ title: "Raw edit" }).expect(200);
    const { id: _id, ...plan } = (await request(first.app).get("/__db/documents/1004").expect(200)).body;
    await request(first.app).delete("/__db/documents/1004").expect(200);
    const { body: raw } = await request(first.app).post("/__db/agents").send(rawAgent("raw@b.example")).expect(201);
    const { body: doomed } = await request(first.app)
      .post("/api/v1/object/property")
      .set(headers)
      .send(address("Doomed"))
      .expect(200);
    const { body: doomedPlan } = await request(first.app)
      .post(`/__db/properties/${doomed.nid}/documents`)
      .send(plan)
      .expect(201);
    await request(first.app).delete(`/__db/properties/${doomed.nid}`).expect(200); // its document goes with it
    await first.close();

    const second = start(file);
    const { body: edited } = await request(second.app)
      .get(`/api/v1/object/property/${created.nid}`)
      .set(headers)
      .expect(200);
    expect(edited.title).toBe("Edited");
    await request(second.app)
      .post(`/api/v1/object/agent_card/${Number(agent.nid)}`)
      .set(headers)
      .expect(404);
    expect((await request(second.app).get("/__db/properties/1002").expect(200)).body.title).toBe("Raw edit");
    await request(second.app).get("/__db/documents/1004").expect(404);
    await request(second.app).get(`/__db/agents/${raw.id}`).expect(200);
    await request(second.app).get(`/__db/properties/${doomed.nid}`).expect(404);
    await request(second.app).get(`/__db/documents/${doomedPlan.id}`).expect(404);
    // The removed agent had the highest nid: it is still never handed out again.
    const { body: next } = await request(second.app)
      .post("/api/v1/object/property")
      .set(headers)
      .send(address())
      .expect(200);
    expect(Number(next.nid)).toBeGreaterThan(Math.max(Number(agent.nid), raw.id, doomedPlan.id));
    await request(second.app).post("/__admin/reset").expect(200);
    await request(second.app).post("/api/v1/object/property").set(headers).send(address("After reset")).expect(200);
    await second.close();

    const third = start(file);
    expect(await streets(third.app)).toEqual(["12 Oak Ave", "After reset"]);
    await request(third.app).get("/__db/documents/1004").expect(200);
    await third.close();
  });

  it("answers a change (API, raw write, reset) only once its journal line is written and synced", async () => {
    const file = join(tempDir(), "db.json");
    const held = heldIo();
    const mock = start(file, { journalIo: held.io });
    held.hold();
    let answered = false;
    const pending = request(mock.app)
      .post("/api/v1/object/property")
      .set(headers)
      .send(address("Held"))
      .then((response) => {
        answered = true;
        return response;
      });
    await held.syncsBegun(1);
    expect(journalLines(file).at(-1)).toContain('"street":"Held"');
    // A read sent now does not wait for anything; its whole round trip ends with the change still unanswered:
    // written, but not synced yet. (An answer that did not wait for the sync was sent before the sync began.)
    await request(mock.app).get("/api/v1/object/property/1001").set(headers).expect(200);
    expect(answered).toBe(false);
    held.let();
    expect((await pending).status).toBe(200);

    // Nor does a raw write or a reset get an answer before its sync.
    for (const send of [
      () => request(mock.app).post("/__db/agents").send(rawAgent("held@b.example")),
      () => request(mock.app).post("/__admin/reset"),
    ]) {
      held.hold();
      const syncs = held.calls.sync;
      let done = false;
      const answer = send().then((response) => {
        done = true;
        return response;
      });
      await held.syncsBegun(syncs + 1);
      await request(mock.app).get("/api/v1/object/property/1001").set(headers).expect(200);
      expect(done).toBe(false);
      held.let();
      expect((await answer).status).toBeLessThan(300);
    }
    await mock.close();
  });

  it("gives the changes that arrive while a sync is under way one write and one sync (group commit)", async () => {
    const file = join(tempDir(), "db.json");
    const held = heldIo();
    const mock = start(file, { journalIo: held.io });
    const before = mock.store.counts().properties;
    held.hold();
    // then() sends it: supertest waits for it otherwise
    const send = (index: number) =>
      request(mock.app)
        .post("/api/v1/object/property")
        .set(headers)
        .send(address(`Group ${index}`))
        .then((answer) => answer);
    const first = send(0);
    await held.syncsBegun(1);
    // 39 more while the first one's sync is held: each is made in memory and waits for the disk
    const made = new Promise<void>((resolve) => {
      const stop = mock.store.onChange(() => {
        if (mock.store.counts().properties < before + 40) return;
        stop();
        resolve();
      });
    });
    const rest = Array.from({ length: 39 }, (_, index) => send(index + 1));
    await made;
    held.let();
    const answers = await Promise.all([first, ...rest]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(journalLines(file)).toHaveLength(40);
    // However the requests were spread over turns of the event loop: the first change, then the 39 as one
    expect(held.calls.sync).toBe(2);
    expect(held.calls.write).toHaveLength(2);
    await mock.close();
  });

  it("answers 503 to writes while saving fails, logs once per streak, keeps reading, and recovers", async () => {
    const file = join(tempDir(), "db.json");
    const held = heldIo();
    const log: string[] = [];
    const mock = start(file, { journalIo: held.io, log: (line) => log.push(line) });
    held.failing = "ENOSPC: no space left on device";
    for (const street of ["F1", "F2", "F3"]) {
      const { body } = await request(mock.app)
        .post("/api/v1/object/property")
        .set(headers)
        .send(address(street))
        .expect(503);
      expect(body.type).toBe("https://property-listing.example/problems/state-not-saved");
      expect(body.detail).toContain("ENOSPC");
    }
    const health = await request(mock.app).get("/healthz").expect(503);
    expect(health.body.detail).toContain(`${file}.journal: ENOSPC`);
    await request(mock.app).get("/api/v1/object/property/1001").set(headers).expect(200);
    expect(
      log.filter((line) => line.startsWith("Cannot save")),
      log.join("\n"),
    ).toHaveLength(1);

    held.failing = undefined;
    await request(mock.app).post("/api/v1/object/property").set(headers).send(address("F4")).expect(200);
    await request(mock.app).get("/healthz").expect(200);
    expect(log.filter((line) => line.startsWith("Saving to") && line.includes("works again"))).toHaveLength(1);
    await mock.close();

    // The changes answered 503 were kept in memory and written once saving worked: nothing lost, nothing twice.
    const again = start(file);
    expect(await streets(again.app)).toEqual(["12 Oak Ave", "F1", "F2", "F3", "F4"]);
    await again.close();
  });

  it("settles close() when the last write fails, saying how many changes were not saved", async () => {
    const file = join(tempDir(), "db.json");
    const held = heldIo();
    const mock = start(file, { journalIo: held.io });
    held.failing = "EIO: i/o error";
    await request(mock.app).post("/api/v1/object/property").set(headers).send(address()).expect(503);
    await expect(mock.close()).rejects.toThrow(/1 changes were not saved to .*db\.json\.journal: EIO: i\/o error/);
  });
});

describe("reading a --db state back", () => {
  it("ignores a torn last journal line, cuts it off, and keeps appending after it", async () => {
    const file = join(tempDir(), "db.json");
    const first = start(file);
    await request(first.app).post("/api/v1/object/property").set(headers).send(address("Kept")).expect(200);
    await first.close();
    appendFileSync(
      `${file}.journal`,
      '{"s":99,"m":{"id":5000,"uid":3,"tok":9},"put":"properties","r":{"id":4999,"uid":1,"str',
    );

    const second = start(file);
    await request(second.app).get("/__db/properties/4999").expect(404);
    await request(second.app).post("/api/v1/object/property").set(headers).send(address("After")).expect(200);
    await second.close();
    const third = start(file);
    expect(await streets(third.app)).toEqual(["12 Oak Ave", "Kept", "After"]);
    await third.close();
  });

  it("refuses a journal with a bad line that is not the last, naming file and line; leaves it as it is", async () => {
    const file = join(tempDir(), "db.json");
    const first = start(file);
    for (const street of ["A", "B"])
      await request(first.app).post("/api/v1/object/property").set(headers).send(address(street)).expect(200);
    await first.close();
    const lines = journalLines(file);
    writeFileSync(`${file}.journal`, `${lines[0]}\n{"s":2,"m":{}}\n${lines[1]}\n`);
    const before = readFileSync(`${file}.journal`);
    expect(() => start(file)).toThrow(`${file}.journal line 2: not a journal entry`);
    expect(readFileSync(`${file}.journal`)).toEqual(before);
  });

  it("refuses a snapshot that is not a state, naming the file and line, and leaves it as it is", () => {
    const file = join(tempDir(), "db.json");
    writeFileSync(file, '{"properties": {}}');
    expect(() => start(file)).toThrow(`${file} does not hold a mock state`);
    writeFileSync(file, '{\n  "accounts": [],\n  "properties": [\n    {nope}\n  ]\n}\n');
    expect(() => start(file)).toThrow(`${file} line 4 is not valid JSON`);
    expect(readFileSync(file, "utf8")).toContain("{nope}");
  });

  it("refuses a snapshot whose $meta is not right, naming its line, though the scan takes the rest of it", () => {
    const file = join(tempDir(), "db.json");
    writeFileSync(
      file,
      '{\n  "accounts": [],\n  "properties": [\n    {"id":1001,"uid":1,"title":"x"}\n  ],\n  "agents": [],\n ' +
        ' "documents": [],\n  "$meta": {"seq": -1}\n}\n',
    );
    expect(() => start(file)).toThrow(`${file} line 8: "$meta" is not the meta of a mock state.`);
  });

  it("compacts the journal into the snapshot past a size, and reads the same state back", async () => {
    const file = join(tempDir(), "db.json");
    let compacted: () => void = () => {};
    const firstCompaction = new Promise<void>((resolve) => (compacted = resolve));
    const mock = start(file, {
      dbCompactAfter: 4_000,
      log: (line) => void (line.startsWith("Compacted") && compacted()),
    });
    for (let index = 0; index < 12; index += 1) {
      await request(mock.app)
        .post("/api/v1/object/property")
        .set(headers)
        .send(address(`C${index}`))
        .expect(200);
    }
    await firstCompaction;
    await mock.close();
    const snapshot = readFileSync(file, "utf8");
    expect(snapshot).toContain('"street":"C0"');
    expect(journalLines(file).length).toBeLessThan(12); // some lines were folded into the snapshot
    expect(readdirSync(join(file, "..")).sort()).toEqual(["db.json", "db.json.journal"]);

    const again = start(file);
    expect(await streets(again.app)).toEqual(["12 Oak Ave", ...Array.from({ length: 12 }, (_, index) => `C${index}`)]);
    await again.close();
  });

  it("finishes a compaction a crash interrupted at either end, applying nothing twice", async () => {
    const dir = tempDir();
    const file = join(dir, "db.json");
    const first = start(file);
    const { body: agent } = await request(first.app)
      .post("/api/v1/object/agent_card/")
      .set(headers)
      .send({ agent_first_name: "A", agent_last_name: "B", email: "x@b.example" })
      .expect(200);
    await first.close();
    copyFileSync(`${file}.journal`, join(dir, "early.journal"));
    const second = start(file);
    await request(second.app)
      .delete(`/api/v1/object/agent_card/${Number(agent.nid)}`)
      .set(headers)
      .expect(200);
    await request(second.app).post("/api/v1/object/property").set(headers).send(address("Late")).expect(200);
    await second.close();

    // Crashed right after the journal was set aside: the changes are all in `.compacting`.
    renameSync(`${file}.journal`, `${file}.journal.compacting`);
    const third = start(file);
    await request(third.app)
      .post(`/api/v1/object/agent_card/${Number(agent.nid)}`)
      .set(headers)
      .expect(404);
    await third.close();
    expect(existsSync(`${file}.journal.compacting`)).toBe(false);

    // Crashed after the new snapshot was renamed, before the set-aside journal was removed: its lines are old.
    copyFileSync(join(dir, "early.journal"), `${file}.journal.compacting`);
    const fourth = start(file);
    await request(fourth.app)
      .post(`/api/v1/object/agent_card/${Number(agent.nid)}`)
      .set(headers)
      .expect(404); // not brought back
    expect((await streets(fourth.app)).filter((street) => street === "Late")).toHaveLength(1);
    await fourth.close();
  });
});

describe("the files of a --db state", () => {
  it("creates a missing directory, removes an interrupted write's temporary files, leaves none on stop", async () => {
    const dir = join(tempDir(), "nested", "deeper");
    const file = join(dir, "db.json");
    const first = start(file);
    await first.close();
    writeFileSync(`${file}.tmp`, "half a snapshot");
    writeFileSync(`${file}.4242.tmp`, "an older version's temporary file");
    writeFileSync(join(dir, "notes.tmp"), "not ours");
    const second = start(file);
    await request(second.app).post("/api/v1/object/property").set(headers).send(address()).expect(200);
    await second.close();
    expect(readdirSync(dir).sort()).toEqual(["db.json", "db.json.journal", "notes.tmp"]);
  });

  it("refuses a path that cannot be written, naming it and the OS error", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "");
    const file = join(dir, "file", "db.json");
    expect(() => start(file)).toThrow(
      new RegExp(`^Cannot use --db ${file}: EEXIST: file already exists, mkdir '${join(dir, "file")}'$`),
    );
  });

  it("keeps auto-login links working across a restart, under a secret of the state", async () => {
    const file = join(tempDir(), "db.json");
    const first = start(file);
    const { body } = await request(first.app).post("/api/v1/object/property").set(headers).send(address()).expect(200);
    await first.close();
    // The snapshot is one JSON document, its meta the member $meta.
    const secret = JSON.parse(readFileSync(file, "utf8")).$meta.autologin.secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const path = new URL(body.uri).pathname;
    const second = start(file);
    await request(second.app).get(path).expect(200);
    await second.close();
    const other = start(join(tempDir(), "db.json"));
    await request(other.app).get(path).expect(404); // another state, another secret
    await other.close();
  });
});
