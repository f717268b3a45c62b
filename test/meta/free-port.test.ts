/**
 * The ports the process tests hand to the programs they start (test/support/start-process.ts): outside the
 * system's ephemeral range, where another test's server on port 0 could take one between the check and the bind,
 * and in a slice of their own for each vitest worker, so that files running side by side never draw the same one.
 */
import { once } from "node:events";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../support/start-process.ts";

const worker = process.env.VITEST_POOL_ID;
afterEach(() => {
  if (worker === undefined) delete process.env.VITEST_POOL_ID;
  else process.env.VITEST_POOL_ID = worker;
});

/** The slice of 1,500 ports of worker `id`. */
const slice = (id: number) => ({ from: 20_000 + (id - 1) * 1_500, to: 20_000 + id * 1_500 });

describe("freePort", () => {
  it("gives a port below the ephemeral ranges, in this worker's slice, that a server can listen on", async () => {
    const port = await freePort();
    const { from, to } = slice(Number(worker ?? "1"));
    expect(port).toBeGreaterThanOrEqual(from);
    expect(port).toBeLessThan(to);
    const server = createServer().listen(port, "127.0.0.1");
    await once(server, "listening");
    server.close();
    await once(server, "close");
  });

  it("gives each worker ports of its own", async () => {
    for (const id of [1, 2, 3]) {
      process.env.VITEST_POOL_ID = String(id);
      const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
      for (const port of ports)
        expect(port >= slice(id).from && port < slice(id).to, `worker ${id}: ${port}`).toBe(true);
    }
  });
});
