import type { Contract } from "../../contract/build-contract.ts";

/**
 * What a path the contract does not have (or has with other methods) most likely meant, as a sentence to add to
 * the problem's detail, or "" when nothing is near. Three slips are common in client code, because section 4
 * writes two create paths with a trailing slash and every other path without one: the slash left out
 * (`POST /agent_card` for `/agent_card/`), a slash added (`/properties/1/`), and the identifier left out
 * (`/properties`, `/properties/` for `/properties/{uid}`).
 */
export function noRouteHint(contract: Contract, method: string, path: string): string {
  const toggled = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
  if (toggled !== "" && contract.match(method, toggled).kind === "operation") {
    return path.endsWith("/")
      ? ` Did you mean ${method} ${toggled}? This path takes no trailing slash.`
      : ` Did you mean ${method} ${toggled}? The trailing slash is part of the path.`;
  }
  const parent = path.endsWith("/") ? path.slice(0, -1) : path;
  for (const operation of contract.operations) {
    if (operation.method !== method) continue;
    const last = /\/\{([^}/]+)\}$/.exec(operation.pathTemplate);
    if (last && operation.pathTemplate.slice(0, last.index) === parent) {
      return ` Did you mean ${method} ${operation.pathTemplate}? The ${last[1]} is part of the path.`;
    }
  }
  return "";
}
