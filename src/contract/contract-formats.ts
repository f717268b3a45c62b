import { fullFormats } from "ajv-formats/dist/formats.js";

/** ajv-formats' `uri` check: RFC 3986's whole grammar as one regular expression (IPv6 hosts, queries, fragments). */
const fullUri = fullFormats.uri as (value: string) => boolean;

/**
 * `http://` or `https://`, a host name, a port, a path, all in plain characters (no percent-encoding, query or
 * fragment). Every string it matches, RFC 3986's grammar accepts too (the test compares the two on generated
 * strings), and it is checked in a fraction of the time: the URLs a property carries take this path.
 */
const PLAIN_HTTP_URL = /^https?:\/\/[a-z0-9\-.]+(?::[0-9]+)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@]*)*$/i;

/**
 * The `uri` format of the contract: exactly ajv-formats' full `uri` (RFC 3986), answered at once for plain
 * http(s) URLs. Checking answers with `--validate-responses` spent a quarter of its time in the full pattern.
 */
export function isUri(value: string): boolean {
  return PLAIN_HTTP_URL.test(value) || fullUri(value);
}

/** ajv-formats' full formats with the quicker `uri`: what the contract's validators check formats with. */
export const contractFormats = { ...fullFormats, uri: isUri };
