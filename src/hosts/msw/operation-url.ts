import { escapeRegExp } from "../../contract/escape-reg-exp.ts";
import type { Operation } from "../../contract/operation-table.ts";

/**
 * The URLs of one operation, as a pattern MSW matches against a request's URL without its query: the base URL's
 * origin and prefix (any origin without one), then the operation's path as the spec writes it, each `{parameter}`
 * one whole segment.
 */
export function operationUrl(
  operation: Pick<Operation, "pathTemplate">,
  base: { origin: string | undefined; prefix: string },
): RegExp {
  const path = operation.pathTemplate
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? "[^/]+" : escapeRegExp(part)))
    .join("");
  const start = base.origin
    ? escapeRegExp(base.origin + base.prefix)
    : `[a-z][a-z0-9+.-]*://[^/]+${escapeRegExp(base.prefix)}`;
  return new RegExp(`^${start}${path}$`, base.origin ? "" : "i");
}
