/**
 * Agent cards (section 2.2) and endpoints 6 to 10: the fields of 2.2 as request and answer, the seat limit
 * (section 8) and email uniqueness, case-insensitive, across every agent (section 7), with their named errors.
 */
import type { Account } from "./accounts.ts";
import { nidSequence, NID_STARTS } from "./nid-sequence.ts";
import { agentError, denied, invalid, malformed, notFound, ok, refused, type Reply } from "./reply.ts";
import type { Faults } from "./variants.ts";

/** The string fields of 2.2 a client may set (id is the service's). */
const TEXT_FIELDS = [
  "name",
  "agent_first_name",
  "agent_last_name",
  "email",
  "phone",
  "company",
  "professional_title",
  "license",
  "website",
  "card_type",
  "headshot_url",
  "notes",
] as const;
const NULLABLE = new Set(["license", "notes"]);

interface SocialLink {
  service: string;
  url: string;
  weight: string;
}

interface AgentRecord {
  nid: number;
  uid: number;
  values: Map<string, string | null>;
  links: SocialLink[] | undefined;
  agencyProfile: string | undefined;
  deleted: boolean;
  created: number;
}

/** The agent endpoints, each taking the authenticated caller. */
export interface AgentBook {
  retrieve(caller: Account, nid: string): Reply;
  create(caller: Account, body: unknown): Reply;
  update(caller: Account, nid: string, body: unknown): Reply;
  remove(caller: Account, nid: string): Reply;
  list(caller: Account): Reply;
  /** Adds an agent as if it had always been there (the starting data of an instance). */
  seed(owner: Account, email: string, name: string): number;
}

type Parsed =
  | { ok: true; values: Map<string, string | null>; links?: SocialLink[]; agencyProfile?: string }
  | { ok: false; error: string };

const MAX_LINKS = 50;

function readLinks(value: unknown, faults: Faults): SocialLink[] | string {
  if (!Array.isArray(value) || value.length > MAX_LINKS)
    return `social_media_links must be an array of at most ${MAX_LINKS} links`;
  const links: SocialLink[] = [];
  for (const [i, link] of value.entries()) {
    if (typeof link !== "object" || link === null) return `social_media_links[${i}] must be an object`;
    const { service, url, weight } = link as Record<string, unknown>;
    if (typeof service !== "string" || typeof url !== "string")
      return `social_media_links[${i}] needs service and url strings`;
    const text = typeof weight === "number" && Number.isFinite(weight) ? String(weight) : weight;
    const integerLike = typeof text === "string" && /^-?\d{1,9}$/.test(text);
    const looseNumber =
      typeof text === "string" &&
      faults.on("accepts-non-integer-weight") &&
      Number.isFinite(Number(text)) &&
      text.trim() !== "";
    if (!integerLike && !looseNumber) return `social_media_links[${i}].weight must be an integer-like string`;
    links.push({ service, url, weight: text });
  }
  return links;
}

/** Reads the fields of 2.2 from a create or update body; fields not named are left alone. */
function readAgent(body: unknown, faults: Faults): Parsed {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, error: "body must be a JSON object" };
  const fields = body as Record<string, unknown>;
  const values = new Map<string, string | null>();
  for (const field of TEXT_FIELDS) {
    const value = fields[field];
    if (value === undefined) continue;
    if (value === null && NULLABLE.has(field)) values.set(field, null);
    else if (typeof value === "string") values.set(field, value);
    else return { ok: false, error: `${field} must be a string` };
  }
  const email = values.get("email");
  if (email !== undefined && (email === null || !/^[^@\s]+@[^@\s]+$/.test(email)))
    return { ok: false, error: "email must be an email address" };
  const parsed: Parsed = { ok: true, values };
  if (fields.social_media_links !== undefined) {
    const links = readLinks(fields.social_media_links, faults);
    if (typeof links === "string") return { ok: false, error: links };
    parsed.links = links;
  }
  const profile = fields.agency_profile;
  if (profile !== undefined) {
    const text = typeof profile === "number" && Number.isInteger(profile) ? String(profile) : profile;
    if (typeof text !== "string" || !/^\d{1,15}$/.test(text))
      return { ok: false, error: "agency_profile must be a numeric id" };
    parsed.agencyProfile = text;
  }
  return parsed;
}

/** A URL with a trailing slash added to its path (legitimate variant urls-with-trailing-slash); others unchanged. */
export function slashed(url: string, faults: Faults): string {
  if (!faults.chooses("urls-with-trailing-slash")) return url;
  const [head, ...rest] = url.split(/(?=[?#])/);
  return `${head!.endsWith("/") ? head : `${head}/`}${rest.join("")}`;
}

/** The digits of a phone number as ddd-ddd-dddd where there are ten (legitimate variant phone-formatted). */
function phoneFormat(phone: string): string {
  const digits = phone.replace(/[^0-9]/g, "");
  return digits.length === 10 ? `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}` : phone;
}

/** Creates an agent book with no agents. */
export function agentBook(options: { faults: Faults; now?: () => number }): AgentBook {
  const { faults } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const nids = faults.chooses("small-sequential-nids") ? nidSequence(1, 1) : nidSequence(NID_STARTS.agent);
  const records: AgentRecord[] = [];

  const live = () => records.filter((r) => !r.deleted);
  const find = (caller: Account, nid: string): AgentRecord | Reply => {
    if (!/^\d{1,15}$/.test(nid)) return malformed("nid must be an integer");
    const record = live().find((r) => r.nid === Number(nid));
    if (record !== undefined && record.uid !== caller.uid && faults.chooses("foreign-records-403"))
      return denied(`agent ${nid} is not yours`);
    return record !== undefined && record.uid === caller.uid ? record : notFound(`no agent ${nid}`);
  };

  /** Whether an email belongs to an agent other than `self` (section 7; compared without case). */
  const taken = (email: string, self: AgentRecord | undefined, caseSensitive: boolean): boolean => {
    const holders = faults.on("email-not-freed-after-delete") ? records : live();
    const same = (other: string | null | undefined) =>
      typeof other === "string" && (caseSensitive ? other === email : other.toLowerCase() === email.toLowerCase());
    return holders.some((r) => r !== self && same(r.values.get("email")));
  };

  const view = (record: AgentRecord): Record<string, unknown> => {
    const value = (field: string) => {
      const stored = record.values.has(field) ? record.values.get(field) : null;
      if (typeof stored !== "string") return stored;
      if (field === "website" && faults.on("agent-website-other-host"))
        return stored.replace(/^(https?:\/\/)[^/]+/, "$1agents.elsewhere.example");
      if (field === "website" || field === "headshot_url") return slashed(stored, faults);
      if (field === "phone" && faults.chooses("phone-formatted")) return phoneFormat(stored);
      return stored;
    };
    const first = record.values.get("agent_first_name");
    const last = record.values.get("agent_last_name");
    const derivedName = [first, last].filter((p): p is string => typeof p === "string" && p !== "").join(" ");
    let links: Array<Record<string, unknown>> | null = null;
    if (record.links !== undefined) {
      let shown = record.links.map((l) => ({ ...l }));
      if (faults.on("negative-weight-link-dropped")) shown = shown.filter((l) => Number(l.weight) >= 0);
      // "orders the links" (2.2): lowest weight first, ties in the order given.
      if (!faults.on("links-not-ordered-by-weight"))
        shown.sort((a, b) =>
          faults.chooses("links-heaviest-first")
            ? Number(b.weight) - Number(a.weight)
            : Number(a.weight) - Number(b.weight),
        );
      links = shown.map((l) => ({
        service: l.service,
        url: slashed(l.url, faults),
        weight: faults.on("weight-as-number") ? Number(l.weight) : l.weight,
      }));
    }
    const shownName = faults.on("agent-name-first-only") ? (first ?? null) : derivedName === "" ? null : derivedName;
    return {
      id: String(faults.on("agent-id-not-nid") ? record.nid - 1 : record.nid),
      name: record.values.has("name") ? record.values.get("name") : shownName,
      agent_first_name: value("agent_first_name"),
      agent_last_name: value("agent_last_name"),
      email: value("email"),
      phone: value("phone"),
      company: value("company"),
      professional_title: value("professional_title"),
      license: value("license"),
      website: value("website"),
      social_media_links: links,
      card_type: value("card_type"),
      agency_profile:
        record.agencyProfile === undefined
          ? null
          : faults.on("agency-profile-as-number")
            ? Number(record.agencyProfile)
            : record.agencyProfile,
      headshot_url: value("headshot_url"),
      notes: value("notes"),
      // Undocumented extras: allowed (issue 8, item 3).
      ...(faults.chooses("no-extra-fields") ? {} : { uid: String(record.uid), created: record.created }),
    };
  };

  const add = (caller: Account, values: Map<string, string | null>): AgentRecord => {
    const record: AgentRecord = {
      nid: nids.next(),
      uid: caller.uid,
      values,
      links: undefined,
      agencyProfile: undefined,
      deleted: false,
      created: now(),
    };
    records.push(record);
    return record;
  };

  return {
    retrieve(caller, nid) {
      const record = find(caller, nid);
      return "status" in record ? record : ok(view(record));
    },

    create(caller, body) {
      const input = readAgent(body, faults);
      if (!input.ok) return invalid(input.error);
      const email = input.values.get("email");
      if (typeof email !== "string") return invalid("email is required");
      // Two rules and no precedence between them (section 7): this implementation checks seats first, the
      // legitimate variant email-before-seats the email first.
      const used = live().filter((r) => r.uid === caller.uid).length;
      const full = used >= caller.agentSeats && !faults.on("seat-limit-not-enforced");
      const duplicate =
        !faults.on("duplicate-email-accepted") &&
        taken(email, undefined, faults.on("duplicate-email-case-variant-accepted"));
      if (duplicate && faults.chooses("email-before-seats")) return agentError("Agent Already Exists");
      if (full)
        return faults.on("seat-limit-unnamed-error")
          ? refused(403, "limit reached")
          : agentError("Not Enough Agent Seats");
      if (duplicate) return agentError("Agent Already Exists");
      if (faults.on("agent-drops-company-and-license")) {
        input.values.delete("company");
        input.values.delete("license");
      }
      const record = add(caller, input.values);
      record.links = input.links;
      record.agencyProfile = input.agencyProfile;
      return ok({
        nid: faults.on("agent-create-nid-as-number") ? record.nid : String(record.nid),
        ...(faults.chooses("no-extra-fields") ? {} : { status: "created" }),
      });
    },

    update(caller, nid, body) {
      const record = find(caller, nid);
      if ("status" in record) return record;
      const input = readAgent(body, faults);
      if (!input.ok) return invalid(input.error);
      const email = input.values.get("email");
      if (
        typeof email === "string" &&
        !faults.on("duplicate-email-on-update-accepted") &&
        taken(email, record, false)
      ) {
        return agentError("Agent Already Exists");
      }
      if (faults.on("agent-update-drops-professional-title")) input.values.delete("professional_title");
      for (const [field, value] of input.values) record.values.set(field, value);
      if (input.links !== undefined) record.links = input.links;
      if (input.agencyProfile !== undefined) record.agencyProfile = input.agencyProfile;
      return ok({ nid: String(record.nid) });
    },

    remove(caller, nid) {
      const record = find(caller, nid);
      if ("status" in record) return record;
      record.deleted = true;
      return ok(faults.on("delete-agent-answers-bare-true") ? true : [true]);
    },

    list(caller) {
      const mine = (faults.on("deleted-agent-still-listed") ? records : live())
        .filter((r) => r.uid === caller.uid)
        .sort((a, b) => (faults.chooses("lists-oldest-first") ? a.nid - b.nid : b.nid - a.nid));
      // Newest first (or oldest first, a legitimate variant). JSON.stringify would put integer-like keys in ascending
      // order, so the text is built here.
      const values = mine.map((r) => {
        const nid = faults.chooses("agent-list-nid-as-string") ? String(r.nid) : r.nid;
        return faults.chooses("no-extra-fields")
          ? { email: r.values.get("email") ?? null, nid }
          : { email: r.values.get("email") ?? null, nid, name: view(r).name };
      });
      if (faults.on("agent-list-as-array") && values.length > 0) return ok(values);
      const entries = mine.map((r, i) => {
        const key = faults.on("agent-list-key-not-nid") ? String(i) : String(r.nid);
        const value = faults.on("agent-list-values-shifted") ? values[(i + 1) % values.length] : values[i];
        return `${JSON.stringify(key)}:${JSON.stringify(value)}`;
      });
      return { status: 200, json: `{${entries.join(",")}}` };
    },

    seed(owner, email, name) {
      return add(
        owner,
        new Map([
          ["email", email],
          ["name", name],
        ]),
      ).nid;
    },
  };
}
