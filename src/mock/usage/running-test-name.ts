const NAME_KEY = Symbol.for("property-listing-kit.test-name-source");

/**
 * Where the test runner of the process says which test runs now (`property-listing-kit/vitest` gives vitest's):
 * a recorder begins that test by itself on its first call, should no hook have begun it (a runner that loads the
 * kit's module once for many files runs its hooks in the first file only). Returns the source it replaces.
 */
export function setTestNameSource(
  source: (() => string | undefined) | undefined,
): (() => string | undefined) | undefined {
  const global = globalThis as unknown as Record<symbol, (() => string | undefined) | undefined>;
  const previous = global[NAME_KEY];
  global[NAME_KEY] = source;
  return previous;
}

/** The test the runner runs now, if a runner said how to ask and a test runs. */
export function runningTestName(): string | undefined {
  const source = (globalThis as unknown as Record<symbol, (() => string | undefined) | undefined>)[NAME_KEY];
  return source?.();
}
