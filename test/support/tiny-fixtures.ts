/**
 * A small, explicit state for the mock's tests: two accounts, a property each (one with an external id, a
 * virtual tour and a video), a floorplan, and an agent. Tests that need more create it through the API.
 */
import type { Database, PropertyRecord } from "../../src/mock/store/records.ts";

export const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token" } as const;
export const OTHER = { "API-KEY": "other-key", TOKEN: "other-token" } as const;

function property(id: number, uid: number, fields: Partial<PropertyRecord>): PropertyRecord {
  return {
    id,
    uid,
    street: "12 Oak Ave",
    premise: "",
    city: "Austin",
    state: "TX",
    zip: "78701",
    country: "US",
    title: "Craftsman bungalow",
    description: "<p>Porch and garden.</p>",
    amenities: "Porch,Garden",
    list_price: "485000",
    display_price: "$485,000",
    square_feet: "1650",
    lot_size: "7,500",
    lot_size_units: "sqft",
    stories: "1",
    bedrooms: "3",
    baths: "2",
    half_baths: "0",
    garage: "1",
    parking_spaces: "2",
    listing_status: "Active",
    property_type: "SingleFamily",
    year_built: "1925",
    open_houses: null,
    subdomain: `12-oak-ave-${id}`,
    custom_domain: null,
    mls_id: null,
    template: "rubik_v2",
    api_author: String(uid),
    main_image: "0",
    edit_access: "0",
    show_on_property: "0",
    logo: "0",
    external_id: null,
    skip_zlookup: null,
    intent: "sale",
    sns_id: null,
    listtrack_property_id: null,
    website_url: `https://12-oak-ave-${id}.sites.property-listing.example`,
    virtual_tours: [],
    property_videos: {},
    published: "1",
    ...fields,
  };
}

/** A fresh copy each call, so no test can change another's seed. */
export function tinyFixtures(): Database {
  return {
    accounts: [
      { id: 1, apiKey: "demo-key", token: "demo-token", agentSeats: 3, name: "Demo" },
      { id: 2, apiKey: "other-key", token: "other-token", agentSeats: 10, name: "Other" },
    ],
    properties: [
      property(1001, 1, {
        external_id: "crm-1001",
        virtual_tours: {
          "1101": { nid: 1101, title: "3D tour", vtour_url: "https://tours.property-listing.example/1101" },
        },
        property_videos: {
          "1102": { nid: 1102, title: "Drive-by", video_url: "https://videos.property-listing.example/1102.mp4" },
        },
      }),
      property(1002, 2, { street: "9 Elm St", title: "Elm cottage", external_id: "crm-1002" }),
    ],
    agents: [
      {
        id: 1003,
        uid: 1,
        name: "Dana Whitfield",
        agent_first_name: "Dana",
        agent_last_name: "Whitfield",
        email: "dana@harbor.example",
        phone: "(415) 555-0142",
        company: "Harbor Realty",
        professional_title: "Listing Agent",
        license: null,
        website: "https://harbor.example/dana",
        social_media_links: [
          { service: "instagram", url: "https://instagram.example/dana", weight: "5" },
          { service: "linkedin", url: "https://linkedin.example/dana", weight: "-2" },
        ],
        card_type: "agent",
        agency_profile: "0",
        headshot_url: "https://harbor.example/dana.jpg",
        notes: null,
      },
    ],
    documents: [
      {
        id: 1004,
        uid: 1,
        created: 1735689600,
        changed: 1735689600,
        title: "Ground floor",
        property_reference: 1001,
        file_url: "https://files.property-listing.example/1001-ground.pdf",
        visible: true,
        category: "floorplan",
        is_floorplan: true,
        Show_on_unbranded: false,
      },
    ],
  };
}
