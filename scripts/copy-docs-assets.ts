/**
 * The second half of `npm run build`: copies the few files of swagger-ui-dist that `/docs` serves into
 * `dist/docs-assets/`, with swagger-ui's LICENSE and NOTICE beside them. The package then ships the copies and
 * swagger-ui-dist stays a dev dependency: installed, it would bring @scarf/scarf, an analytics package with an
 * install script, to every consumer. Starts from an empty folder, so nothing stale is shipped; a file missing
 * from swagger-ui-dist fails the build. It copies the console's hand-written files (src/console/) into
 * `dist/console-assets/` too.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DOCS_ASSET_DIR, DOCS_ASSET_LICENSES, DOCS_ASSETS } from "../src/hosts/node/docs-assets.ts";
import { CONSOLE_ASSET_DIR, CONSOLE_ASSETS, CONSOLE_SOURCE_DIR } from "../src/hosts/node/console-assets.ts";

const manifest = createRequire(import.meta.url).resolve("swagger-ui-dist/package.json");
const source = dirname(manifest);
const { version, license } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string; license: string };
const files = [...Object.keys(DOCS_ASSETS), ...DOCS_ASSET_LICENSES];

rmSync(DOCS_ASSET_DIR, { recursive: true, force: true });
mkdirSync(DOCS_ASSET_DIR, { recursive: true });
for (const file of files) copyFileSync(join(source, file), join(DOCS_ASSET_DIR, file));
writeFileSync(
  join(DOCS_ASSET_DIR, "README.md"),
  `Copied from swagger-ui-dist ${version} (${license}; see LICENSE and NOTICE) by scripts/copy-docs-assets.ts\n` +
    `during \`npm run build\`, for the mock's API reference at /docs: ${files.join(", ")}.\n`,
);

// The console's files (/__admin/console), hand-written in src/console/: copied as they are, no build step.
rmSync(CONSOLE_ASSET_DIR, { recursive: true, force: true });
mkdirSync(CONSOLE_ASSET_DIR, { recursive: true });
for (const file of Object.keys(CONSOLE_ASSETS))
  copyFileSync(join(CONSOLE_SOURCE_DIR, file), join(CONSOLE_ASSET_DIR, file));
