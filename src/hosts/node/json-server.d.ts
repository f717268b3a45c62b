/**
 * The part of json-server 0.17's CommonJS API the kit uses (the package ships no types): `/__db` is served by
 * its router (raw-records-router.ts, which loads it on the first raw request); the bench runs it as a peer.
 */
declare module "json-server" {
  import type { Express, Request, RequestHandler, Response, Router } from "express";

  /** lowdb 1's lodash instance, as json-server mixes lodash-id and its own helpers into it. */
  export interface LowdbLodash {
    mixin(source: Record<string, (...args: never[]) => unknown>): unknown;
    [name: string]: unknown;
  }

  /** json-server's lowdb 1 instance (a lodash wrapper around the state object). */
  export interface LowdbInstance<State> {
    getState(): State;
    setState(state: State): LowdbInstance<State>;
    _: LowdbLodash;
  }

  export interface JsonServerRouter<State> extends Router {
    db: LowdbInstance<State>;
    /** Sends every answer of the router (`res.locals.data`); replaceable, to act before an answer goes out. */
    render: (request: Request, response: Response) => void;
  }

  interface JsonServer {
    /** An Express application (with `json spaces` set to 2). */
    create(): Express;
    /** json-server's REST router over an in-memory lowdb holding `state` (the object itself, not a copy). */
    router<State extends object>(state: State, options?: { foreignKeySuffix?: string }): JsonServerRouter<State>;
    /** JSON and urlencoded body parsers, as json-server's router uses them. */
    bodyParser: RequestHandler[];
  }

  const jsonServer: JsonServer;
  export default jsonServer;
}
