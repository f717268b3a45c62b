// Type-aware rules only: formatting and the rest of the lint rules are Biome's (biome.json). These are the checks
// that need the type checker, which Biome does not have: a promise nobody awaits or handles, a promise passed where
// a plain value or a void callback is expected, an await of something that is not a promise.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "src/generated/**", "examples/**", "coverage/**", "**/*.js", "**/*.mjs"] },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
    },
  },
);
