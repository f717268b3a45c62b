/**
 * The floor of the side-by-side table: a bare `node:http` server that answers every request with the bytes the
 * mock answered to the measured request (status, headers, body), recorded first and passed in as JSON in
 * PLK_BARE_ANSWER. No routing, no parsing, no validation: what answering costs with Node's HTTP alone.
 *
 * Run as its own process with `node --import tsx`: the loader costs only start-up, and the bench counts CPU
 * from after the first answer.
 */
import { createServer } from "node:http";

const answer = JSON.parse(process.env.PLK_BARE_ANSWER ?? "{}") as {
  status: number;
  headers: Record<string, string>;
  body: string;
};
const body = Buffer.from(answer.body, "utf8");
const port = Number(process.argv[2]);

createServer((request, response) => {
  request.resume();
  response.writeHead(answer.status, answer.headers);
  response.end(body);
}).listen(port, "127.0.0.1", () => process.stdout.write("listening\n")); // the bench sends its first request then
