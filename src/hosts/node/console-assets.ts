import { join } from "node:path";
import { PACKAGE_ROOT } from "../../package-root.ts";

/** Where the console's page is served (the Node host's), under the admin surface. */
export const CONSOLE_PATH = "/__admin/console";

/**
 * The console's files, hand-written (plain DOM and CSS, no build step, nothing fetched from elsewhere), by the
 * name the page asks for them under `/__admin/console/`, with their content types. `npm run build` copies them
 * from `src/console/` into `dist/console-assets/` (scripts/copy-docs-assets.ts), so an installed kit serves them.
 */
export const CONSOLE_ASSETS: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "console-views.js": "text/javascript; charset=utf-8",
  "console.js": "text/javascript; charset=utf-8",
  "console.css": "text/css; charset=utf-8",
};

/** Where the console's files are written by hand. */
export const CONSOLE_SOURCE_DIR = join(PACKAGE_ROOT, "src", "console");
/** Where the build puts the copies the mock serves. */
export const CONSOLE_ASSET_DIR = join(PACKAGE_ROOT, "dist", "console-assets");
