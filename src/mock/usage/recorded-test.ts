import type { OperationId } from "../../contract/operation-id.ts";
import type { UsageStartState } from "../../contract/usage/usage-document.ts";

/** A collection whose records a request names by id. */
export type RecordCollection = "properties" | "agents" | "documents";

/** One call as recorded: what serializing it needs, kept cheap to hold (the answer as its encoded text). */
export interface RecordedCall {
  operation: OperationId;
  method: string;
  /** The path without the query. */
  path: string;
  params: Record<string, string>;
  headers: Array<[string, string]>;
  /** The role of the account the credentials opened, or null. */
  account: string | null;
  credentials?: "missing" | "wrong";
  /** The request body as JSON text, when there was one. */
  requestBody?: string;
  status: number;
  mediaType: string | null;
  /** The answer's body as it was sent: JSON text (or its UTF-8 bytes), none for an empty body. */
  answer: string | Uint8Array | undefined;
  /** The error point of a service profile that shaped the answer. */
  errorPoint?: string;
  /** The success's media type came from a service profile. */
  profiledMedia?: boolean;
}

/** A test being recorded. */
export interface OpenTest {
  name: string;
  start: UsageStartState;
  calls: RecordedCall[];
  /** Records of the start state a request named, as JSON text, by `collection/id`. */
  records: Map<string, string>;
  /** External ids a request named, and the property each named when the test reached it. */
  externalIds: Map<string, string>;
  /** The path parameters of each path this test sent, matched once. */
  paths: Map<string, Record<string, string> | null>;
  /** The role of each account (by its place in the recorder's table) in this test. */
  roles: Map<number, string>;
  /** The uid of each role used in this test. */
  uids: Map<string, string>;
  freshTaken: boolean;
  truncated: boolean;
  /** Bytes this test is estimated to take once written. */
  bytes: number;
}

/** The collection a path names records of, by its operation's path. */
export function collectionOfPath(pathTemplate: string): RecordCollection | undefined {
  if (pathTemplate.includes("/property/")) return "properties";
  if (pathTemplate.includes("/agent_card/")) return "agents";
  if (pathTemplate.includes("/document/")) return "documents";
  return undefined;
}
