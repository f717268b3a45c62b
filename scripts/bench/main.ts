/**
 * `npm run bench`: speed and memory figures of the kit, and every goal of issues 9 (speed) and 11 (durable --db)
 * with PASS/FAIL.
 *
 * Speed and memory targets are figures printed here rather than thresholds in unit tests, where timing depends
 * on the machine and on what else runs. Relative goals are ratios measured within the same run, against peers
 * started by the bench itself (Prism, json-server, a bare node:http server serving the mock's bytes).
 *
 * The sections are the files of `sections/`, run in the order of their names; each exports `section`
 * ({@link BenchSection}). **Adding a section is a one-file change**: put `sections/NN-name.ts` there, exporting
 * `section = { key, run(context) }`; its figures appear in `--json` under its key, its lines in the report, its
 * goals in the goal table. See `README.md` in this folder.
 *
 * Every input is seeded (fixtures, nids chosen, bodies): two runs send the same requests. Nothing here draws
 * from Math.random. Bad arguments: a message on stderr and exit code 2. A request answered with an unexpected
 * status: exit code 1.
 */
import { writeFileSync } from "node:fs";
import { parseBenchArgs, USAGE } from "./settings.ts";

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseBenchArgs(args);
  if (!parsed.ok) {
    console.error(`bench: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  const { settings } = parsed;
  // Loaded once the arguments are good: a command line refused costs node the parser alone.
  const { runBench } = await import("./run-bench.ts");
  const { report, text } = await runBench(settings, (line) => process.stderr.write(`${line}\n`));
  const json = JSON.stringify(report, null, 2);
  console.log(settings.json ? json : text.join("\n"));
  if (settings.jsonFile) writeFileSync(settings.jsonFile, `${json}\n`);
  if (settings.updateDocs) {
    const { updatePerformancePage } = await import("./performance-page.ts");
    process.stderr.write(`${updatePerformancePage(report)}\n`);
  }
  if (report.failures.length > 0) {
    console.error(`bench: ${report.failures.length} failure(s); see FAILURES.`);
    return 1;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
