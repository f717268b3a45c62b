import { escapeRegExp } from "../../contract/escape-reg-exp.ts";
import { failure, success, type Outcome } from "../problems.ts";
import { MAX_DELAY_MS } from "../services/delay-limit.ts";
import type { CollectionName } from "../store/records.ts";
import { clip } from "../clip.ts";

/** The query of a `/__db` request as json-server's router reads it (`req.query`): text, or a list of texts. */
export type RawQuery = Record<string, string | string[]>;

/** Query parameters a raw request may carry: each field filter costs json-server a pass over the collection. */
export const MAX_QUERY_PARAMETERS = 32;
/** Fields one `_sort` may name: each is read from every listed record. */
export const MAX_SORT_FIELDS = 8;
/**
 * `_embed` compares each listed record with every record of the embedded collection (json-server filters the
 * whole collection once per record): a list with it may cost at most this many comparisons.
 */
export const MAX_EMBED_COMPARISONS = 5_000_000;

/** Options json-server reads as one text (it would fail on a list, or take the first). */
const SINGLE_VALUED = new Set(["q", "_sort", "_order", "_page", "_limit", "_start", "_end", "_delay"]);

/**
 * Where the records relate, in json-server's naming (`foreignKeySuffix: "_reference"`): a document refers to its
 * property by `property_reference`, so a property embeds its documents and a document expands its property. The
 * owner `uid` is not in that naming (json-server would look for `account_reference`): filter by `?uid=` instead.
 */
const EMBEDS: Partial<Record<CollectionName, readonly string[]>> = { properties: ["documents"] };
const EXPANDS: Partial<Record<CollectionName, readonly string[]>> = { documents: ["property"] };

/** What the query check needs to know of the state. */
export interface RawQueryScope {
  collection: CollectionName;
  /** A list (`/__db/<collection>`), or one record (`/__db/<collection>/<id>`). */
  list: boolean;
  /** How many records a collection holds. */
  size(collection: CollectionName): number;
}

/**
 * The query json-server's router is given for a raw read, from the request's query string, made safe to hand
 * over: json-server 0.17 builds `new RegExp(value, "i")` from a `_like` value, so the value is escaped and
 * matches as text (case-insensitive, as json-server's `q` already does); `callback` is dropped (JSONP would let
 * any web page read the state with a script tag); options json-server reads as one text keep their first value;
 * the work a query can ask for is bounded (parameters, sort fields, `_embed` comparisons, `_delay` up to 60 s),
 * and an `_embed` or `_expand` of records that do not relate is refused instead of answering empty lists.
 * The object has no prototype, so no parameter name (`__proto__`) can reach one.
 */
export function rawQuery(search: string, scope: RawQueryScope): Outcome<RawQuery> {
  const entries = [...new URLSearchParams(search)];
  if (entries.length > MAX_QUERY_PARAMETERS) {
    return badQuery("", `has ${entries.length} parameters; a raw query takes at most ${MAX_QUERY_PARAMETERS}`);
  }
  const query: RawQuery = Object.create(null) as RawQuery;
  for (const [key, value] of entries) {
    if (key === "callback") continue;
    if (SINGLE_VALUED.has(key)) {
      if (!(key in query)) query[key] = value;
      continue;
    }
    const text = key.endsWith("_like") ? escapeRegExp(value) : value;
    const held = query[key];
    if (held === undefined) query[key] = text;
    else if (Array.isArray(held)) held.push(text);
    else query[key] = [held, text];
  }

  const sort = query._sort as string | undefined;
  if (sort !== undefined && sort.split(",").length > MAX_SORT_FIELDS)
    return badQuery("_sort", `names more than ${MAX_SORT_FIELDS} fields`);
  const delay = query._delay as string | undefined;
  if (delay !== undefined && parseFloat(delay) > MAX_DELAY_MS)
    return badQuery("_delay", `asks for more than ${MAX_DELAY_MS} ms`);

  const expands = [query._expand ?? []].flat();
  for (const name of expands) {
    if (!(EXPANDS[scope.collection] ?? []).includes(name))
      return badQuery("_expand", unrelated("_expand", name, scope.collection, EXPANDS));
  }
  const embeds = [...new Set([query._embed ?? []].flat())];
  for (const name of embeds) {
    if (!(EMBEDS[scope.collection] ?? []).includes(name))
      return badQuery("_embed", unrelated("_embed", name, scope.collection, EMBEDS));
  }
  if (embeds.length > 0) {
    query._embed = embeds;
    const listed = scope.list ? listedAtMost(query, scope.size(scope.collection)) : 1;
    const compared = listed * embeds.reduce((sum, name) => sum + scope.size(name as CollectionName), 0);
    if (compared > MAX_EMBED_COMPARISONS) {
      return badQuery(
        "_embed",
        `would compare ${compared} pairs of records (at most ${MAX_EMBED_COMPARISONS}): ` +
          "list fewer records with it, with _page and _limit",
      );
    }
  }
  return success(query);
}

/** The most records a list answers, from its paging options as json-server reads them. */
function listedAtMost(query: RawQuery, size: number): number {
  const number = (key: string) => parseInt(query[key] as string, 10);
  if (query._page !== undefined) {
    const limit = number("_limit") || 10;
    return limit > 0 ? Math.min(size, limit) : size;
  }
  if (query._end !== undefined) {
    const span = number("_end") - (number("_start") || 0);
    return Number.isFinite(span) ? Math.max(0, Math.min(size, span)) : size;
  }
  if (query._limit !== undefined) {
    const limit = number("_limit");
    return Number.isFinite(limit) && limit >= 0 ? Math.min(size, limit) : size;
  }
  return size;
}

function unrelated(
  option: string,
  name: string,
  collection: CollectionName,
  table: Partial<Record<CollectionName, readonly string[]>>,
): string {
  const related = Object.entries(table).map(([from, names]) => `${option}=${names.join(",")} on ${from}`);
  return (
    `${clip(name, 100)} does not relate to ${collection}; ` +
    `the records relate by property_reference (${related.join("; ")}), and to their account by uid (filter with ?uid=)`
  );
}

function badQuery(key: string, detail: string): Outcome<never> {
  const name = key === "" ? "The query" : `The query parameter ${clip(key, 100)}`;
  return failure("invalidRequest", `${name} ${detail}.`, [{ in: "query", pointer: `/${clip(key, 100)}`, detail }]);
}
