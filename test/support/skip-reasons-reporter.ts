/**
 * A vitest reporter that ends the run with every test skipped for a missing prerequisite and the reason it gave
 * (`ctx.skip(condition, "why")`), so a skip is never silent in `npm test`'s default output, where a skipped
 * test is otherwise only counted.
 */
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class SkipReasonsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    let unexplained = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests("skipped")) {
        const result = test.result();
        const note = result.state === "skipped" ? result.note : undefined;
        if (note)
          lines.push(
            `  ${relative(module.project.config.root, module.moduleId)} > ${test.fullName}\n      why: ${note}`,
          );
        else unexplained += 1;
      }
    }
    if (lines.length === 0) return;
    const others = unexplained > 0 ? ` (and ${unexplained} left out by a filter or it.skip)` : "";
    process.stdout.write(`\nSkipped for a missing prerequisite${others}:\n${lines.join("\n")}\n`);
  }
}
