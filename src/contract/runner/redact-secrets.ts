/** One secret of a run and what a report shows in its place: `${CONTRACT_API_KEY}`. */
export interface Secret {
  value: string;
  shownAs: string;
}

/**
 * Secrets shorter than this are not looked for: a one-letter demo token would turn every report into noise, and
 * no real API key or token is that short.
 */
export const SHORTEST_SECRET = 4;

/**
 * A function that copies a value (a report, a progress event) with every secret in its strings replaced by its
 * variable name. The curl lines already name the variables; this catches the rest: a service that echoes the
 * API-KEY in an error body, a message quoting a header. Longer secrets first, so that one holding another is
 * replaced whole. A value none of whose strings holds a secret, as nearly every one is, comes back as it is,
 * not copied.
 */
export function secretRedactor(secrets: Secret[]): <T>(value: T) => T {
  const ordered = secrets
    .filter((secret) => secret.value.length >= SHORTEST_SECRET)
    .sort((a, b) => b.value.length - a.value.length);
  if (ordered.length === 0) return (value) => value;
  // A report holds thousands of strings and nearly none holds a secret: looking is cheaper than splitting each.
  const scrub = (text: string) =>
    ordered.reduce(
      (result, secret) => (result.includes(secret.value) ? result.split(secret.value).join(secret.shownAs) : result),
      text,
    );
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return scrub(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      // Copied key by key (a report has tens of thousands of objects; no array of entries built for each), a
      // `__proto__` key that a service's JSON carries kept as a field, as Object.fromEntries keeps it.
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const entry = walk((value as Record<string, unknown>)[key]);
        if (key === "__proto__")
          Object.defineProperty(copy, key, { value: entry, enumerable: true, writable: true, configurable: true });
        else copy[key] = entry;
      }
      return copy;
    }
    return value;
  };
  // Whether the walk would change anything: the same strings looked at, nothing copied. A report holds no secret
  // nearly always, and looking through it costs a fraction of copying its tens of thousands of objects. Its
  // results share their request (its curl line, its body), which is looked through once.
  // The strings looked at are mostly short (statuses, names, nids): one shorter than the shortest secret holds none.
  const values = ordered.map((secret) => secret.value);
  const shortest = values[values.length - 1]!.length;
  const stringHolds = (text: string): boolean => {
    if (text.length < shortest) return false;
    for (const secret of values) if (text.includes(secret)) return true;
    return false;
  };
  const holdsSecret = (value: unknown, seen: Set<object>): boolean => {
    if (typeof value === "string") return stringHolds(value);
    if (value === null || typeof value !== "object" || seen.has(value)) return false;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const entry of value) if (holdsSecret(entry, seen)) return true;
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      for (const key in value) if (holdsSecret((value as Record<string, unknown>)[key], seen)) return true;
    }
    return false;
  };
  return <T>(value: T) => (holdsSecret(value, new Set()) ? (walk(value) as T) : value);
}
