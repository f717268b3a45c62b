import { createHmac } from "node:crypto";

/**
 * The `<ACCESS_TOKEN>` of the auto-login `uri` that create and edit answer (section 4.1). Tokens are derived
 * from a counter and a secret, never from randomness, so the same sequence of requests gets the same tokens.
 */
export class AutologinTokens {
  readonly #secret: string;
  readonly #properties = new Map<string, number>();
  #issued = 0;

  constructor(secret = "property-listing-mock") {
    this.#secret = secret;
  }

  /** A new token that signs in to the property. */
  issue(propertyId: number): string {
    this.#issued += 1;
    const token = createHmac("sha256", this.#secret).update(`${this.#issued}:${propertyId}`).digest("hex").slice(0, 32);
    this.#properties.set(token, propertyId);
    return token;
  }

  /**
   * Forgets every token and starts the sequence again, with the state's reset: the nids start again too, so an
   * old token would otherwise sign in to whichever new property gets its nid.
   */
  clear(): void {
    this.#properties.clear();
    this.#issued = 0;
  }

  /** The property a token signs in to, if this mock issued it. */
  propertyOf(token: string): number | undefined {
    return this.#properties.get(token);
  }
}
