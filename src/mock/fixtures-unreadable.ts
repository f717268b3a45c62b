/**
 * A fixtures file that cannot be read as JSON (gone, unreadable, not JSON): `loadFixtures` throws it. At start it
 * stops the mock with its message; on a reset, which reads the file again, the core answers it 409 and changes
 * nothing (create-mock-core.ts). In a module of its own, without `node:` imports, for that core.
 */
export class FixturesUnreadable extends Error {
  override readonly name = "FixturesUnreadable";
}
