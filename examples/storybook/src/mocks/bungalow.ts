import type { Database } from "property-listing-kit/msw";

/**
 * Records of a story's own: the demo account with one listing and its two floorplans, and nothing else. Each
 * record is whole, as the service holds it; the mock checks them when a story starts from them.
 */
export const bungalow: Database = {
  "accounts": [
    {
      "id": 1,
      "apiKey": "demo-key",
      "token": "demo-token",
      "agentSeats": 10,
      "name": "Demo account"
    }
  ],
  "properties": [
    {
      "id": 5001,
      "uid": 1,
      "street": "1 Storybook Lane",
      "premise": "Unit 1",
      "city": "Austin",
      "state": "TX",
      "zip": "78701",
      "country": "US",
      "title": "Story-Ready Bungalow with Two Floorplans",
      "description": "<p>A bungalow of the story's own.</p>",
      "amenities": "Rooftop deck,Doorman,Fitness center,Smart thermostat",
      "list_price": "450000",
      "display_price": "$450,000",
      "square_feet": "800",
      "lot_size": "8,450",
      "lot_size_units": "sqft",
      "stories": "2",
      "bedrooms": "3",
      "baths": "2",
      "half_baths": "0",
      "garage": "3",
      "parking_spaces": "5",
      "listing_status": "Active",
      "property_type": "Miscellaneous",
      "year_built": "1987",
      "open_houses": null,
      "subdomain": "1-storybook-lane-5001",
      "custom_domain": null,
      "mls_id": "MLS-5001",
      "template": "lnd",
      "api_author": "1",
      "main_image": "1042",
      "edit_access": "1033",
      "show_on_property": "1034",
      "logo": "1040",
      "external_id": "crm-5001",
      "skip_zlookup": null,
      "intent": "sale",
      "sns_id": null,
      "listtrack_property_id": null,
      "website_url": "https://1-storybook-lane-5001.sites.property-listing.example",
      "virtual_tours": {},
      "property_videos": {},
      "published": "1"
    }
  ],
  "agents": [],
  "documents": [
    {
      "id": 5002,
      "uid": 1,
      "created": 1761631131,
      "changed": 1762341967,
      "title": "Ground floor",
      "property_reference": 5001,
      "file_url": "https://files.property-listing.example/floorplans/5001-5002.pdf",
      "visible": true,
      "category": "floorplan",
      "is_floorplan": true,
      "Show_on_unbranded": false
    },
    {
      "id": 5003,
      "uid": 1,
      "created": 1761631131,
      "changed": 1762341967,
      "title": "Upper floor",
      "property_reference": 5001,
      "file_url": "https://files.property-listing.example/floorplans/5001-5003.pdf",
      "visible": true,
      "category": "floorplan",
      "is_floorplan": true,
      "Show_on_unbranded": false
    }
  ]
};
