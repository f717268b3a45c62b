import type { Contract, HeaderBag } from "./build-contract.ts";
import { builtInContract } from "./built-in-contract.ts";
import { formatViolation, type ContractResult, type ContractViolation } from "./contract-violation.ts";
import { isJournalEntry, journalExchange } from "./journal-entry-exchange.ts";

/** Options of the `toSatisfyContract` matcher. */
export interface ContractMatcherOptions {
  /** `fact`: only documented facts count; `all` (default): assumptions of the contract count too. */
  tier?: "fact" | "all";
  /** The contract to hold the exchange against; by default the package's spec (see {@link useContract}). */
  contract?: Contract;
}

interface RequestLike {
  method: string;
  path?: string;
  url?: string;
  headers?: HeaderBag;
  body?: unknown;
}

let defaultContract: Contract | undefined;

/** Sets the contract the matcher uses when none is passed (for example one built from another copy of the spec). */
export function useContract(contract: Contract): void {
  defaultContract = contract;
}

/**
 * Holds a request or a response against the contract.
 * - a response: `{ method, path, status, headers, body }` (`url` may stand for `path`), or a supertest response;
 * - a request: `{ method, path, headers, body }`;
 * - both: `{ request: {...}, response: { status, headers, body } }`;
 * - a request journal entry (`mock.requests()[0]`, an entry of `GET /__admin/requests`): the request it records,
 *   and the answer too when the entry carries one (`response`); its `status` alone is not an answer to judge.
 */
export function checkAgainstContract(
  received: unknown,
  options: ContractMatcherOptions = {},
): { label: string; errors: ContractViolation[] } {
  // The package's spec in its generated form: nothing read from a file, so the matcher runs in a browser too
  // (vitest's browser mode, Storybook's Vitest addon) as in Node.
  const contract = options.contract ?? (defaultContract ??= builtInContract());
  const exchanges = normalize(received);
  const errors: ContractViolation[] = [];
  let label = "";
  for (const exchange of exchanges) {
    const result: ContractResult =
      exchange.status === undefined
        ? contract.validateRequest({
            method: exchange.method,
            path: exchange.path,
            headers: exchange.headers ?? {},
            body: exchange.body,
          })
        : contract.validateResponse({
            method: exchange.method,
            path: exchange.path,
            status: exchange.status,
            headers: exchange.headers ?? {},
            body: exchange.body,
          });
    errors.push(...result.errors.filter((error) => options.tier !== "fact" || error.tier === "fact"));
    label =
      `${exchange.method.toUpperCase()} ` +
      `${exchange.path}${exchange.status === undefined ? "" : ` → ${exchange.status}`}`;
  }
  if (exchanges.length === 2)
    label = `${exchanges[0]!.method.toUpperCase()} ${exchanges[0]!.path} and its answer ${exchanges[1]!.status}`;
  return { label, errors };
}

/** The matcher itself, in the shape `expect.extend` takes. */
export function toSatisfyContract(this: { isNot: boolean }, received: unknown, options?: ContractMatcherOptions) {
  const { label, errors } = checkAgainstContract(received, options);
  return {
    pass: errors.length === 0,
    message: () =>
      this.isNot
        ? `expected ${label} not to satisfy the contract, but it does`
        : `expected ${label} to satisfy the contract, but it breaks it in ${errors.length} ` +
          `place${errors.length === 1 ? "" : "s"}:\n  ${errors.map(formatViolation).join("\n  ")}`,
  };
}

interface Normalized {
  method: string;
  path: string;
  status?: number;
  headers?: HeaderBag;
  body?: unknown;
}

function normalize(received: unknown): Normalized[] {
  if (received === null || typeof received !== "object")
    throw new TypeError("toSatisfyContract expects a request or a response object");
  const value = received as Record<string, unknown>;
  if (isJournalEntry(value)) {
    const { request, response } = journalExchange(value);
    const asked = pathOf(request);
    return response
      ? [
          asked,
          {
            method: asked.method,
            path: asked.path,
            status: response.status,
            headers: response.headers,
            body: response.body,
          },
        ]
      : [asked];
  }
  if (value.request && value.response) {
    const request = pathOf(value.request as RequestLike);
    const response = value.response as { status: number; headers?: HeaderBag; body?: unknown };
    return [
      request,
      {
        method: request.method,
        path: request.path,
        status: response.status,
        headers: response.headers,
        body: response.body,
      },
    ];
  }
  const supertestRequest = value.req as { method?: string; path?: string } | undefined;
  if (typeof value.status === "number" && supertestRequest?.method && supertestRequest.path) {
    return [
      {
        method: supertestRequest.method,
        path: supertestRequest.path,
        status: value.status,
        headers: value.headers as HeaderBag,
        body: value.body,
      },
    ];
  }
  const request = pathOf(value as unknown as RequestLike);
  return [typeof value.status === "number" ? { ...request, status: value.status } : request];
}

function pathOf(request: RequestLike): Normalized {
  if (typeof request.method !== "string") throw new TypeError("toSatisfyContract needs the request's method");
  const raw = request.path ?? request.url;
  if (typeof raw !== "string") throw new TypeError("toSatisfyContract needs the request's path or url");
  const path = /^https?:\/\//.test(raw) ? new URL(raw).pathname : raw;
  const normalized: Normalized = { method: request.method, path };
  if (request.headers !== undefined) normalized.headers = request.headers;
  if ("body" in request) normalized.body = request.body;
  return normalized;
}
