/** The port the mock listens on unless told. */
export const DEFAULT_PORT = 4010;
/** The address it listens on unless told: the loopback only. */
export const DEFAULT_HOST = "127.0.0.1";
/** The agent seats an account has unless configured (section 4.3). */
export const DEFAULT_AGENT_SEATS = 10;
/** The largest request body accepted, in bytes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
