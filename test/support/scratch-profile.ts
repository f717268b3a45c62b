import { startIndependentService } from "./independent-service/index.ts";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import { sortedJson } from "../../src/contract/profile/infer-json-schema.ts";
import { writeFileSync } from "node:fs";
const variant = process.argv[2];
const s = await startIndependentService(variant ? { variant } : {});
const a = s.accounts;
const out = await runContract({ baseUrl: s.url, apiKey: a.primary.apiKey, token: a.primary.token, other: a.other, fresh: a.fresh, recordProfile: true });
if (out.kind !== "report") { console.log(out); process.exit(1); }
console.log(out.report.result, out.report.results.filter(r => r.status === "failed").map(r => `${r.check} ${r.step}: ${r.message}`).slice(0, 10));
writeFileSync(`/tmp/wt20/profile-${variant ?? "plain"}.json`, sortedJson(out.profile));
await s.close();
