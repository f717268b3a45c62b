import { packageVersion } from "./package-version.ts";
import type { ParsedArgs } from "./read-options.ts";

/**
 * Every program answers its command line alike: the help on standard output and exit 0, the kit's version and
 * exit 0, a usage error with the help on standard error and exit 2. Anything else is the command to run.
 */
export function commandOrExit<Command>(parsed: ParsedArgs<Command>, usage: string): Command {
  if (parsed.kind === "help") {
    console.log(usage);
    process.exit(0);
  }
  if (parsed.kind === "version") {
    console.log(packageVersion());
    process.exit(0);
  }
  if (parsed.kind === "error") {
    console.error(`${parsed.message}\n\n${usage}`);
    process.exit(2);
  }
  return parsed.command;
}
