import type { components } from "../../generated/openapi.ts";

type TemplateEntry = components["schemas"]["TemplateEntry"];

/**
 * The template catalogue (section 2.4): the twenty-three machine names with their access levels; `pro` for
 * icon, eko, lux, north and stak, `exclusive` for intra, `standard` for all others. The display titles are not
 * documented; these are ours.
 */
export const TEMPLATE_CATALOGUE: readonly TemplateEntry[] = [
  { title: "Rubik V2", machine_name: "rubik_v2", access_level: "standard" },
  { title: "Icon", machine_name: "icon", access_level: "pro" },
  { title: "Air", machine_name: "air", access_level: "standard" },
  { title: "LND", machine_name: "lnd", access_level: "standard" },
  { title: "Focal", machine_name: "focal", access_level: "standard" },
  { title: "MOT", machine_name: "mot", access_level: "standard" },
  { title: "Rubik", machine_name: "rubik", access_level: "standard" },
  { title: "Kit", machine_name: "kit", access_level: "standard" },
  { title: "Pipeline", machine_name: "pipeline", access_level: "standard" },
  { title: "MAK", machine_name: "mak", access_level: "standard" },
  { title: "Saren", machine_name: "saren", access_level: "standard" },
  { title: "Syd", machine_name: "syd", access_level: "standard" },
  { title: "Arlo", machine_name: "arlo", access_level: "standard" },
  { title: "Bren", machine_name: "bren", access_level: "standard" },
  { title: "Dax", machine_name: "dax", access_level: "standard" },
  { title: "Cobi", machine_name: "cobi", access_level: "standard" },
  { title: "Eko", machine_name: "eko", access_level: "pro" },
  { title: "Lux", machine_name: "lux", access_level: "pro" },
  { title: "Ryne", machine_name: "ryne", access_level: "standard" },
  { title: "North", machine_name: "north", access_level: "pro" },
  { title: "Stak", machine_name: "stak", access_level: "pro" },
  { title: "Karr", machine_name: "karr", access_level: "standard" },
  { title: "Intra", machine_name: "intra", access_level: "exclusive" },
];
