import { USAGE_TESTS_PATH } from "../usage/usage-route.ts";
import { PROVIDER_STATES_PATH } from "./provider-states-route.ts";

/**
 * How a route's path is matched: the path itself (`exact`), the path or anything below it (`under`: `/docs`,
 * `/docs/…`), any path that starts with it (`prefix`), or exactly one non-empty segment after it (`segment`:
 * `/autologin/<token>`). Paths are exact and case-sensitive.
 */
export type PathMatch = "exact" | "under" | "prefix" | "segment";

/**
 * What stands before a route's handler: the whole admin guard (`admin`: Host, Origin, `--admin-token`, JSON
 * writes), only its Host and Origin rules (`page`: a page a browser opens, which cannot send the token), or
 * nothing.
 */
export type RouteGuard = "admin" | "page" | undefined;

/**
 * One line of the table. Its name is what the core's router (answer-requests.ts) finds its handler by. The core
 * answers most routes; a host answers the few that need what only it has (files of the package, json-server, a
 * response held open), through the handlers it passes in (`HostRoutes`). A route whose handler is missing (a host
 * without it, or a core collaborator not configured) is passed over: the request goes on down the table.
 */
export interface Route {
  name: string;
  path: string;
  match: PathMatch;
  /** The methods it answers; any other goes on down the table. All when absent. */
  methods?: readonly string[];
  guard?: RouteGuard;
  /** The host answers it, when it passes a handler. */
  host?: true;
}

const READ = ["GET", "HEAD"] as const;

/**
 * Every path the mock answers, and who answers it, first match wins: the API, the admin surface (no CORS, behind
 * the guard), the public pages. Anything no route takes is a 404 problem. The API comes first: it is the path
 * nearly every request takes.
 */
export const ROUTES = [
  { name: "api", path: "/api", match: "under" },
  // The admin surface: everything under /__admin or /__db, guarded, and never given CORS (isAdminRoute).
  { name: "consolePage", path: "/__admin/console", match: "under", guard: "page", host: true },
  { name: "consoleEvents", path: "/__admin/events", match: "exact", guard: "admin", host: true },
  { name: "rawRecords", path: "/__db", match: "under", guard: "admin", host: true },
  { name: "rawRecordsElsewhere", path: "/__db", match: "under", guard: "admin" },
  { name: "reset", path: "/__admin/reset", match: "exact", methods: ["POST"], guard: "admin" },
  { name: "state", path: "/__admin/state", match: "exact", guard: "admin" },
  { name: "providerStates", path: PROVIDER_STATES_PATH, match: "exact", guard: "admin" },
  { name: "usageTests", path: USAGE_TESTS_PATH, match: "exact", guard: "admin" },
  { name: "requests", path: "/__admin/requests", match: "exact", methods: ["GET", "DELETE"], guard: "admin" },
  { name: "faults", path: "/__admin/faults", match: "exact", methods: ["GET", "DELETE", "POST"], guard: "admin" },
  { name: "fault", path: "/__admin/faults/", match: "segment", methods: ["DELETE"], guard: "admin" },
  { name: "console", path: "/__admin/journal", match: "under", guard: "admin" },
  { name: "console", path: "/__admin/coverage", match: "exact", guard: "admin" },
  { name: "console", path: "/__admin/latency", match: "exact", guard: "admin" },
  { name: "adminNotFound", path: "/__admin", match: "prefix", guard: "admin" },
  { name: "adminNotFound", path: "/__db", match: "prefix", guard: "admin" },
  // The public pages.
  { name: "openapiYaml", path: "/openapi.yaml", match: "exact", methods: READ, host: true },
  { name: "docs", path: "/docs", match: "under", methods: READ, host: true },
  { name: "health", path: "/healthz", match: "exact", methods: READ },
  { name: "index", path: "/", match: "exact", methods: READ },
  { name: "openapiJson", path: "/openapi.json", match: "exact", methods: READ },
  { name: "autologin", path: "/autologin/", match: "segment", methods: READ },
] as const satisfies readonly Route[];

/** The name of a route, by which its handler is found (several rows may share one). */
export type RouteName = (typeof ROUTES)[number]["name"];

/** The routes a host answers, if it can (the Node host: src/hosts/node/create-app.ts). */
export type HostRouteName = Extract<(typeof ROUTES)[number], { host: true }>["name"];

/** Whether a route takes a path. */
export function matches(route: Route, path: string): boolean {
  const prefix = route.path;
  switch (route.match) {
    case "exact":
      return path === prefix;
    case "under":
      return path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47); // "/"
    case "prefix":
      return path.startsWith(prefix);
    case "segment":
      return path.length > prefix.length && path.startsWith(prefix) && !path.includes("/", prefix.length);
  }
}

/**
 * Whether a path belongs to the admin surface (`/__admin…`, `/__db…`): guarded, and given no CORS at all,
 * preflight included, so that no page of another origin may read or write it.
 */
export function isAdminRoute(path: string): boolean {
  return path.startsWith("/__admin") || path.startsWith("/__db");
}
