import { beforeEach, describe, expect, it } from "vitest";
import {
  addAgent,
  createListing,
  listingClient,
  listingHeader,
  myListings,
  openListing,
} from "../src/listing-client.ts";
import { BASE_URL, mock } from "./setup.ts";

// The demo account of the kit's fixtures (uid 1).
const client = listingClient({ baseUrl: BASE_URL, apiKey: "demo-key", token: "demo-token" });

describe("my listings", () => {
  it("lists the account's properties", async () => {
    const listings = await myListings(client, 1);
    expect(listings.length).toBeGreaterThan(0);
    expect(listings.every((listing) => listing.title !== "")).toBe(true);
  });

  it("creates a listing and finds it under its new title", async () => {
    const nid = await createListing(client, "12 Elm Street", "Sunny corner house");
    expect((await openListing(client, Number(nid)))?.title).toBe("Sunny corner house");
    expect(mock).toHaveReceived({ method: "PUT", path: `/api/v1/object/property/${nid}` });
  });

  it("creates a listing, renames it and shows its header", async () => {
    const nid = await createListing(client, "3 Oak Lane", "Quiet cottage");
    expect(await listingHeader(client, Number(nid))).toMatch(/^Quiet cottage \(/);
  });
});

describe("agents", () => {
  it("adds an agent", async () => {
    const added = await addAgent(client, {
      agent_first_name: "Ada",
      agent_last_name: "Byron",
      email: "ada.byron@example.test",
    });
    expect(added.kind).toBe("added");
  });
});

describe("a full account", () => {
  // The state a test starts from: the usage records it, and a replay makes it on the service.
  beforeEach(() => mock.useState("seats-full"));

  it("shows the seats-full screen when the account has no seat left", async () => {
    const added = await addAgent(client, {
      agent_first_name: "Alan",
      agent_last_name: "Turing",
      email: "alan.turing@example.test",
    });
    expect(added.kind).toBe("seats-full");
  });
});
