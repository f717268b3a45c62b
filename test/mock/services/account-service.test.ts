/** AccountService without HTTP: which credentials open which account, and the bound on accounts opened on first use. */
import { describe, expect, it } from "vitest";
import { AccountService } from "../../../src/mock/services/account-service.ts";
import { inMemoryStore } from "../../support/in-memory-store.ts";

const open = { openOnFirstUse: true, defaultAgentSeats: 4 };

describe("AccountService.authenticate", () => {
  it.each([
    {
      case: "no API-KEY",
      key: undefined,
      token: "demo-token",
      situation: "credentials-missing",
      detail: "The API-KEY header is missing.",
    },
    {
      case: "an empty API-KEY",
      key: "",
      token: "demo-token",
      situation: "credentials-missing",
      detail: "The API-KEY header is missing.",
    },
    {
      case: "no TOKEN",
      key: "demo-key",
      token: undefined,
      situation: "credentials-missing",
      detail: "The TOKEN header is missing.",
    },
    {
      case: "another account's TOKEN",
      key: "demo-key",
      token: "other-token",
      situation: "credentials-wrong",
      detail: "The TOKEN does not belong to this API-KEY.",
    },
  ])("refuses $case as unauthorized, saying which header, and opens nothing", ({ key, token, situation, detail }) => {
    const store = inMemoryStore();
    const before = store.accountCount();
    expect(new AccountService({ store, ...open }).authenticate(key, token)).toEqual({
      ok: false,
      failure: { problem: "unauthorized", detail, situation },
    });
    expect(store.accountCount()).toBe(before);
  });

  it("opens a seeded account with its own key and token", () => {
    const store = inMemoryStore();
    const opened = new AccountService({ store, ...open }).authenticate("demo-key", "demo-token");
    expect(opened).toEqual({ ok: true, value: expect.objectContaining({ id: 1, apiKey: "demo-key", agentSeats: 3 }) });
  });

  it("opens a new, empty account for a key seen the first time, bound from then on to the token it came with", () => {
    const store = inMemoryStore();
    const accounts = new AccountService({ store, ...open });
    const first = accounts.authenticate("fresh-key", "fresh-token");
    expect(first.ok && first.value).toEqual(
      expect.objectContaining({ apiKey: "fresh-key", token: "fresh-token", agentSeats: 4 }),
    );
    const id = first.ok ? first.value.id : -1;
    expect(store.propertiesOf(id)).toEqual([]);
    expect(store.agentsOf(id)).toEqual([]);
    expect(accounts.authenticate("fresh-key", "fresh-token")).toEqual(first);
    expect(accounts.authenticate("fresh-key", "another-token")).toEqual({
      ok: false,
      failure: {
        problem: "unauthorized",
        detail: "The TOKEN does not belong to this API-KEY.",
        situation: "credentials-wrong",
      },
    });
  });

  it("admits known keys only when accounts are configured, and opens none", () => {
    const store = inMemoryStore();
    const before = store.accountCount();
    const outcome = new AccountService({ store, ...open, openOnFirstUse: false }).authenticate("fresh-key", "t");
    expect(outcome).toEqual({
      ok: false,
      failure: {
        problem: "unauthorized",
        detail: "The API-KEY is not known to this service.",
        situation: "credentials-wrong",
      },
    });
    expect(store.accountCount()).toBe(before);
  });

  it("opens no account past the bound (seeded accounts count), and still admits those it holds", () => {
    const store = inMemoryStore();
    const accounts = new AccountService({ store, ...open, maxAccounts: 3 });
    expect(accounts.authenticate("third-key", "t").ok).toBe(true);
    const refused = accounts.authenticate("fourth-key", "t");
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.failure.problem).toBe("unauthorized");
      expect(refused.failure.detail).toContain("this mock already holds 3 accounts");
    }
    expect(store.accountCount()).toBe(3);
    expect(accounts.authenticate("third-key", "t").ok).toBe(true);
    expect(accounts.authenticate("demo-key", "demo-token").ok).toBe(true);
  });
});
