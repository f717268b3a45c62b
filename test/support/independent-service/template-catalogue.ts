/**
 * The template catalogue of section 2.4 and the narrower list that property create accepts (section 4.1,
 * endpoint 3: the catalogue without `syd` and `intra`).
 */
import type { Faults } from "./variants.ts";

/** Every machine name of section 2.4, in the document's order. */
export const CATALOGUE_NAMES = [
  "rubik_v2",
  "icon",
  "air",
  "lnd",
  "focal",
  "mot",
  "rubik",
  "kit",
  "pipeline",
  "mak",
  "saren",
  "syd",
  "arlo",
  "bren",
  "dax",
  "cobi",
  "eko",
  "lux",
  "ryne",
  "north",
  "stak",
  "karr",
  "intra",
] as const;

/** The templates property create accepts (section 4.1, endpoint 3). */
export const CREATE_TEMPLATES: readonly string[] = [
  "mak",
  "kit",
  "mot",
  "lnd",
  "karr",
  "stak",
  "north",
  "icon",
  "lux",
  "ryne",
  "dax",
  "bren",
  "eko",
  "rubik_v2",
  "arlo",
  "pipeline",
  "cobi",
  "focal",
  "rubik",
  "air",
  "saren",
];

const PRO = new Set(["icon", "eko", "lux", "north", "stak"]);

/** Access level by machine name (section 2.4). */
export function accessLevel(name: string): "standard" | "pro" | "exclusive" {
  if (name === "intra") return "exclusive";
  return PRO.has(name) ? "pro" : "standard";
}

function titleOf(name: string): string {
  return name
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(" ");
}

/**
 * The answer of endpoint 15. The order (reverse of the document's) and the extra fields are this
 * implementation's choice: section 4.5 documents no ordering, and extra fields are allowed (issue 8, item 3).
 */
export function catalogueAnswer(faults: Faults): unknown {
  const names = CATALOGUE_NAMES.filter((name) => !(faults.on("templates-missing-intra") && name === "intra"));
  const ordered = faults.chooses("lists-oldest-first") ? [...names] : [...names].reverse();
  const templates = ordered.map((name) => ({
    title: titleOf(name),
    machine_name: name,
    access_level: faults.on("templates-eko-standard") && name === "eko" ? "standard" : accessLevel(name),
    ...(faults.chooses("no-extra-fields") ? {} : { preview: `https://templates.example.net/${name}/preview.png` }),
  }));
  return faults.chooses("no-extra-fields") ? { templates } : { templates, count: templates.length };
}
