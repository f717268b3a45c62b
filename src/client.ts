/**
 * `property-listing-kit/client`: a typed client of the Property Listing Service for a frontend and its tests, made
 * with openapi-fetch (an optional peer dependency, never bundled) and the contract's generated types.
 *
 * @example
 * import { createListingClient } from "property-listing-kit/client";
 * export const api = createListingClient({ baseUrl: import.meta.env.VITE_API_URL, apiKey, token });
 * const { data, error } = await api.GET("/api/v1/object/properties/{uid}", { params: { path: { uid: 1 } } });
 */
export { createListingClient, type ListingClient, type ListingClientOptions } from "./client/create-listing-client.ts";
export type { components, operations, paths } from "./generated/openapi.ts";
