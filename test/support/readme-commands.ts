/**
 * The shell commands of the README and of the manual's pages under docs/, as a reader copies them, for the tests
 * that run them: test/e2e/readme-commands.test.ts runs every one, except the Prism commands that a Prism test
 * starts instead (`README_PRISM`), so that each Prism command starts Prism once in the suite, where what it serves
 * is checked in depth, and the install commands that test/support/consumer-install.ts runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { manualPages } from "./manual-pages.ts";
import { PACKAGE_ROOT } from "./start-process.ts";

/** The README, then each page of docs/ in name order: what a user reads, as one text. */
export function userDocs(): string {
  return manualPages()
    .map((page) => readFileSync(join(PACKAGE_ROOT, page), "utf8"))
    .join("\n");
}

/** Each line of each `sh` block of the README and docs/, comments off, continued lines joined. */
export function readmeCommands(): string[] {
  const readme = userDocs();
  return [...readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].flatMap((block) =>
    block[1]!
      .replace(/\\\n\s*/g, "")
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => line !== ""),
  );
}

/** The one command of the README and docs/ that matches; a test that runs it fails when they no longer have it. */
export function readmeCommand(pattern: RegExp): string {
  const found = readmeCommands().filter((line) => pattern.test(line));
  if (found.length !== 1)
    throw new Error(
      `README.md and docs/ have ${found.length} commands matching ${pattern}, not one: ${JSON.stringify(found)}`,
    );
  return found[0]!;
}

/** The README's Prism commands that the Prism tests start, by the test file that starts each. */
export const README_PRISM = {
  mock: /^npm run mock:prism$/,
  dynamic: /^npm run mock:prism -- --dynamic$/,
  proxy: /^npm run proxy -- --target https:\/\/staging\.example\.com$/,
} as const;

/** Where each of `README_PRISM` runs. */
export const README_PRISM_TESTS: Record<keyof typeof README_PRISM, string> = {
  mock: "test/prism/prism-mock.test.ts",
  dynamic: "test/prism/prism-dynamic.test.ts",
  proxy: "test/prism/prism-proxy-stateful-mock.test.ts",
};

/**
 * A server command of the README made to listen where a test can reach it: on `port` (its own `--port` replaced,
 * or one added) and on the loopback rather than every interface.
 */
export function onPort(line: string, port: number): string {
  if (/--port \d+/.test(line))
    return line.replace(/--port \d+/, `--port ${port}`).replace("--host 0.0.0.0", "--host 127.0.0.1");
  return `${line}${line.includes(" -- ") ? "" : " --"} --port ${port}`;
}
