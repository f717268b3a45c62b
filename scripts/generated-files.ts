/**
 * The files `npm run generate` writes from spec/openapi.yaml after openapi-typescript's, in one process (with
 * `--check`, `npm run generate:check` checks them): the contract's compiled form (generate-validators.ts), then
 * docs/assumptions.md (assumptions.ts), the second only when the first succeeded, as `&&` would run them. One
 * process rather than one each spares a start of tsx and a second read of the spec.
 */
await import("./generate-validators.ts");
if (!process.exitCode) await import("./assumptions.ts");
