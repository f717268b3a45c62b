import type { IncomingMessage } from "node:http";
import type { Failure } from "../problems.ts";

/**
 * What the admin guard knows of the mock's configuration. Empty today: the admin routes are open to whatever
 * reaches the port, as they always were. Checks of the Origin and Host headers and an admin token, read once by
 * the CLI, arrive here.
 */
export interface AdminGuardOptions {}

/**
 * Decides whether a request to the admin surface (every path under `/__admin` and `/__db`) may reach its
 * handler: `undefined` lets it through, a {@link Failure} refuses it with that problem (and the handler never
 * runs, so a refused request changes nothing). It runs before the body is read; a refused body is discarded.
 */
export type AdminGuard = (request: IncomingMessage, path: string) => Failure | undefined;

/**
 * The one guard in front of the admin routes (`admin-routes.ts` calls it first, for every admin request).
 * Today it admits every request.
 */
export function createAdminGuard(_options: AdminGuardOptions = {}): AdminGuard {
  return () => undefined;
}
