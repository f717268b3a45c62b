import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "../generated/openapi.ts";

/** Options of {@link createListingClient}. */
export interface ListingClientOptions {
  /**
   * Where the service (or the mock) answers: `http://localhost:4010`, `https://api.example.test/mock`. With MSW's
   * handlers in a page, the page's own origin (`location.origin`) or the handlers' `baseUrl`.
   */
  baseUrl: string;
  /** The caller's API key, sent as `API-KEY` on every operation. */
  apiKey: string;
  /** The caller's API token, sent as `TOKEN` on every operation. */
  token: string;
  /**
   * The fetch to call. By default `globalThis.fetch` as it is at each call, not as it was when the client was
   * made: MSW's `server.listen()` and `worker.start()` replace or intercept it later than a module-level client
   * is made, and a client that kept the first one would go past the mock to the network.
   */
  fetch?: (request: Request) => Promise<Response>;
  /** Further openapi-fetch options (a querySerializer, `Request`, …); the credentials and fetch above win. */
  clientOptions?: Omit<ClientOptions, "baseUrl" | "fetch" | "headers">;
  /** Headers added to every operation besides the credentials (an `Accept-Language`, a trace id). */
  headers?: Record<string, string>;
}

/** The typed client: openapi-fetch's, with the contract's `paths`. */
export type ListingClient = Client<paths, "application/json">;

/**
 * An openapi-fetch client typed by the contract, sending `API-KEY`, `TOKEN` and `content-type: application/json`
 * on every operation (the service requires all three, even on a GET: service-interface.md §3 and §6). It looks
 * `globalThis.fetch` up at call time, so it reaches MSW's handlers whether it was made before or after
 * `server.listen()` or `worker.start()`. Expected failures are values (`{ data } | { error }`), as openapi-fetch
 * answers them.
 *
 * @example
 * import { createListingClient } from "property-listing-kit/client";
 * const api = createListingClient({ baseUrl: "http://localhost:4010", apiKey: "demo-key", token: "demo-token" });
 * const { data, error } = await api.GET("/api/v1/object/property/{nid}", { params: { path: { nid: 1001 } } });
 */
export function createListingClient(options: ListingClientOptions): ListingClient {
  if (options === null || typeof options !== "object")
    throw new TypeError("createListingClient takes an object of options: { baseUrl, apiKey, token }.");
  for (const name of ["baseUrl", "apiKey", "token"] as const) {
    if (typeof options[name] !== "string" || options[name] === "")
      throw new TypeError(`createListingClient: "${name}" must be a non-empty string.`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function")
    throw new TypeError('createListingClient: "fetch" must be a function of a Request.');
  const given = options.fetch;
  return createClient<paths, "application/json">({
    ...options.clientOptions,
    baseUrl: options.baseUrl,
    // Looked up per call, never kept: see the `fetch` option.
    fetch: given ?? ((request: Request) => globalThis.fetch(request)),
    headers: {
      ...options.headers,
      "API-KEY": options.apiKey,
      TOKEN: options.token,
      "content-type": "application/json",
    },
  });
}
