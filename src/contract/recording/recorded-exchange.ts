/** One request of a recording and the answer it got, as read from a HAR file or a list of exchanges. */
export interface RecordedExchange {
  /** Where it is in the recording, for messages: `entry 3` (HAR, counted from 1) or `exchange 3`. */
  label: string;
  method: string;
  /** The request's URL as recorded: absolute in a HAR file, possibly only a path in a list of exchanges. */
  url: string;
  /** Header names lower-cased, the first value of each. */
  requestHeaders: Record<string, string>;
  /** The parsed JSON body, or the text of a body that is not JSON; undefined when none was sent. */
  requestBody?: unknown;
  /** Why a request body announced as JSON could not be parsed. */
  requestBodyError?: string;
  /** Undefined when the recording holds no answer (the request failed or was cancelled in the client). */
  response?: RecordedResponse;
  /** How long the exchange took, when the recording says. */
  durationMs?: number;
}

/** The answer of a recorded exchange. */
export interface RecordedResponse {
  status: number;
  /** Header names lower-cased, the first value of each. */
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when the body is empty, not JSON, or not recorded. */
  body?: unknown;
  /** The body's text ("" when empty or not recorded). */
  text: string;
  /** False when the recording left the body out (a HAR file exported without content). */
  bodyRecorded: boolean;
  /** Why a body announced as JSON could not be parsed. */
  jsonError?: string;
}
