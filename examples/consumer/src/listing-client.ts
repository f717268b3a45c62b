/**
 * The app's own API layer: what its screens call. It rests on the kit's typed client, and on two answers the
 * interface document does not fix (section 7 names the errors, not their statuses): that is what a replay of the
 * suite against the real service checks.
 */
import { createListingClient } from "property-listing-kit/client";

export type ListingClient = ReturnType<typeof createListingClient>;

export function listingClient(options: { baseUrl: string; apiKey: string; token: string }): ListingClient {
  return createListingClient(options);
}

/** What the "add an agent" form shows after submitting. */
export type AgentAdded =
  | { kind: "added"; nid: string }
  | { kind: "seats-full"; message: string }
  | { kind: "email-taken" }
  | { kind: "failed"; status: number };

export async function addAgent(
  client: ListingClient,
  agent: { agent_first_name: string; agent_last_name: string; email: string },
): Promise<AgentAdded> {
  const { data, error, response } = await client.POST("/api/v1/object/agent_card/", { body: agent });
  if (data) return { kind: "added", nid: data.nid };
  // The seats-full screen reads the status and the problem's title: the mock's answer, not a documented one.
  const problem = error as { title?: string; detail?: string } | undefined;
  if (response.status === 402)
    return { kind: "seats-full", message: problem?.detail ?? problem?.title ?? "No agent seats left" };
  if (response.status === 409) return { kind: "email-taken" };
  return { kind: "failed", status: response.status };
}

/** The "my listings" screen: the titles of a user's properties. */
export async function myListings(client: ListingClient, uid: number): Promise<Array<{ nid: string; title: string }>> {
  const { data, error } = await client.GET("/api/v1/object/properties/{uid}", { params: { path: { uid } } });
  if (error) throw new Error(`could not list the properties of user ${uid}`);
  return data.map(({ nid, title }) => ({ nid, title }));
}

/** The "new listing" form: creates the property, then renames it as the form's second step does. */
export async function createListing(client: ListingClient, street: string, title: string): Promise<string> {
  const created = await client.POST("/api/v1/object/property", {
    body: { street, city: "Springfield", state: "IL", zip: "62701" },
  });
  if (!created.data) throw new Error(`create answered ${created.response.status}`);
  const nid = Number(created.data.nid);
  const edited = await client.PUT("/api/v1/object/property/{nid}", { params: { path: { nid } }, body: { title } });
  if (!edited.data) throw new Error(`edit answered ${edited.response.status}`);
  return created.data.nid;
}

/** The property page. */
export async function openListing(client: ListingClient, nid: number) {
  const { data, error } = await client.GET("/api/v1/object/property/{nid}", { params: { path: { nid } } });
  if (error) return undefined;
  return { title: data.title, city: data.city, price: data.list_price };
}

/** The property page's header: its title, and its country as the header prints it (upper case). */
export async function listingHeader(client: ListingClient, nid: number): Promise<string> {
  const { data, error } = await client.GET("/api/v1/object/property/{nid}", { params: { path: { nid } } });
  if (error) throw new Error(`could not open property ${nid}`);
  // The mock always gave a country ("US" where none was set), so the header trusts there is one: a service that
  // answers null for a never-set country breaks it, which a re-run against the service's answers shows.
  return `${data.title} (${data.country!.toUpperCase()})`;
}
