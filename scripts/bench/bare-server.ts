/**
 * The floor of the side-by-side table: a bare `node:http` server that answers every request with the bytes the
 * mock answered to the measured request (status, headers, body), recorded first and passed in as JSON in
 * PLK_BARE_ANSWER. No routing, no parsing, no validation: what answering costs with Node's HTTP alone.
 *
 * Its text is JavaScript as well as TypeScript, and runs as its own process as `node --input-type=module -e <this
 * text> <port>` (servers.ts): no loader, whose start would cost the machine more CPU than the server's own.
 */
import { createServer } from "node:http";

/** `{ status, headers, body }`, left as JSON.parse gives it so that this text needs no TypeScript syntax. */
const answer = JSON.parse(process.env.PLK_BARE_ANSWER ?? "{}");
const body = Buffer.from(answer.body, "utf8");
const port = Number(process.argv.at(-1));

createServer((request, response) => {
  request.resume();
  response.writeHead(answer.status, answer.headers);
  response.end(body);
}).listen(port, "127.0.0.1", () => process.stdout.write("listening\n")); // the bench sends its first request then
