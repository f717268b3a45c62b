/**
 * Vitest global setup: builds `dist/` once before any test file runs, since `npm start`, `npm run contract`,
 * the bins and the package as a consumer imports it all run the built JavaScript. One build for the whole run,
 * so that no test reads files another one is rewriting. The build is `tsc -b`: when dist/ is newer than src/
 * and the tsconfig files (as right after `npm ci`, whose prepare built it), it only checks that and copies the
 * docs page's files, a couple of seconds instead of a full compile in every run.
 */
import { execFileSync } from "node:child_process";
import { PACKAGE_ROOT } from "./start-process.ts";

export default function buildOnce(): void {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: PACKAGE_ROOT, stdio: "pipe" });
}
