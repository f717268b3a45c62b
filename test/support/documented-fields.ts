/** The fields of the interface document's resource tables, in the order of the tables (sections 2.1 to 2.3). */

/** Section 2.1: a retrieved property. */
export const PROPERTY_FIELDS = [
  "nid", "uid", "street", "premise", "city", "state", "zip", "country", "title", "description", "amenities",
  "list_price", "display_price", "square_feet", "lot_size", "lot_size_units", "stories", "bedrooms", "baths",
  "half_baths", "garage", "parking_spaces", "listing_status", "property_type", "year_built", "open_houses",
  "subdomain", "custom_domain", "mls_id", "template", "api_author", "main_image", "edit_access",
  "show_on_property", "logo", "external_id", "skip_zlookup", "intent", "sns_id", "listtrack_property_id",
  "website_url", "virtual_tours", "property_videos", "floorplans",
];

/** Section 2.2: a retrieved agent card. */
export const AGENT_FIELDS = [
  "id", "name", "agent_first_name", "agent_last_name", "email", "phone", "company", "professional_title", "license",
  "website", "social_media_links", "card_type", "agency_profile", "headshot_url", "notes",
];

/** Section 2.3: a retrieved document. */
export const DOCUMENT_FIELDS = [
  "nid", "created", "changed", "title", "property_reference", "file_url", "visible", "category", "is_floorplan",
  "Show_on_unbranded",
];
