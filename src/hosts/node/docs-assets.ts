import { join } from "node:path";
import { PACKAGE_ROOT } from "../../package-root.ts";

/**
 * The files of swagger-ui-dist that `/docs` serves, by the name the page asks for them under `/docs/`, with their
 * content types. `npm run build` copies exactly these (scripts/copy-docs-assets.ts), so an installed kit serves
 * them without swagger-ui-dist, which would bring @scarf/scarf, an analytics package with an install script.
 */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/**
 * Files copied beside the assets and never served: swagger-ui's licence (Apache-2.0 asks that its LICENSE and
 * NOTICE go with the copies) and the licences of what its bundle includes, which the bundle's header points to.
 */
export const DOCS_ASSET_LICENSES: readonly string[] = ["LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"];

/**
 * Where the build puts the copies: `dist/docs-assets/` of this package, for the built kit and the sources run in
 * a clone (after `npm ci` or `npm run build`) alike.
 */
export const DOCS_ASSET_DIR = join(PACKAGE_ROOT, "dist", "docs-assets");
