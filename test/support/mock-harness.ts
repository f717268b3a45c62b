/**
 * Starts the mock for a test file: in-process (supertest, no port) with every answer checked against the
 * contract, and after each test, asserts that the mock never broke the contract.
 */
import request from "supertest";
import { afterEach, expect } from "vitest";
import { createContract, type Contract } from "../../src/contract/create-contract.ts";
import { createMockServer, type MockServer, type MockServerOptions } from "../../src/hosts/node/create-mock-server.ts";
import { DEMO, tinyFixtures } from "./tiny-fixtures.ts";

let shared: Contract | undefined;
/** One compiled contract per test file (compiling takes a few hundred milliseconds). */
export function sharedContract(): Contract {
  return (shared ??= createContract({ closed: true }));
}

export interface Harness {
  mock: MockServer;
  /** A request with the demo account's credentials and `content-type: application/json`. */
  api(method: "get" | "post" | "put" | "delete", path: string, credentials?: Record<string, string>): request.Test;
}

export function createHarness(options: MockServerOptions = {}): Harness {
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    validateResponses: true,
    contract: sharedContract(),
    log: () => {},
    ...options,
  });
  afterEach(() => {
    expect(mock.violations, "the mock answered something the contract does not allow").toEqual([]);
    mock.reset();
  });
  return {
    mock,
    api: (method, path, credentials = DEMO) =>
      request(mock.app)
        [method](`/api/v1/object${path}`)
        .set({ ...credentials, "content-type": "application/json" }),
  };
}
