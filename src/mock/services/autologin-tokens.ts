import { hmacSha256, toHex } from "./hmac-sha256.ts";

/** How many tokens stay valid: each new one expires the oldest beyond this number. */
export const DEFAULT_LIVE_TOKENS = 10_000;

/** Options of {@link AutologinTokens}. */
export interface AutologinTokenOptions {
  /** The signing secret: kept with a `--db` state, so links survive a restart. Random unless given. */
  secret?: string;
  /** How many tokens were issued before (from a saved state). */
  issued?: number;
  /** How many of the latest tokens are valid. */
  live?: number;
}

/**
 * The `<ACCESS_TOKEN>` of the auto-login `uri` that create and edit answer (section 4.1). A token is
 * `<serial>-<nid>-<signature>`: the signature is an HMAC of the serial and the nid under a secret drawn at
 * random for each state, so nobody can make a token the mock did not issue, and the mock keeps nothing per
 * token. Only the latest {@link DEFAULT_LIVE_TOKENS} serials are accepted, so their number is bounded.
 */
export class AutologinTokens {
  readonly #secret: string;
  readonly #live: number;
  #issued: number;

  constructor(options: AutologinTokenOptions = {}) {
    this.#secret = options.secret ?? AutologinTokens.newSecret();
    this.#issued = options.issued ?? 0;
    this.#live = options.live ?? DEFAULT_LIVE_TOKENS;
  }

  /** A fresh random secret (256 bits, hex). */
  static newSecret(): string {
    return toHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  }

  /** The signing secret, to keep with the state. */
  get secret(): string {
    return this.#secret;
  }

  /** How many tokens have been issued, to keep with the state. */
  get issued(): number {
    return this.#issued;
  }

  /** A new token that signs in to the property. */
  issue(propertyId: number): string {
    this.#issued += 1;
    return `${this.#issued}-${propertyId}-${this.#sign(this.#issued, propertyId)}`;
  }

  /**
   * Starts the serials again, with the state's reset (the nids start again too): the same requests after a
   * reset get the same tokens, and a token issued before it signs in only where the same token would be issued.
   */
  clear(): void {
    this.#issued = 0;
  }

  /** The property a token signs in to, if this mock issued it and it has not expired. */
  propertyOf(token: string): number | undefined {
    const match = /^([1-9][0-9]{0,14})-([1-9][0-9]{0,14})-([0-9a-f]{32})$/.exec(token);
    if (!match) return undefined;
    const serial = Number(match[1]);
    const propertyId = Number(match[2]);
    if (serial > this.#issued || serial <= this.#issued - this.#live) return undefined;
    return sameInConstantTime(match[3]!, this.#sign(serial, propertyId)) ? propertyId : undefined;
  }

  /** The signature of a token: the first 16 bytes of the HMAC-SHA-256 of `<serial>:<nid>`, in hex. */
  #sign(serial: number, propertyId: number): string {
    return toHex(hmacSha256(this.#secret, `${serial}:${propertyId}`).subarray(0, 16));
  }
}

/** Whether two hex strings of one length are equal, looking at every character whatever the first difference. */
function sameInConstantTime(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let index = 0; index < given.length; index += 1)
    difference |= given.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0;
}
