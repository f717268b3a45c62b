// Preloaded into the mock's bin by test/e2e/request-log-flush.test.ts (node --import): the answer to any request
// for /crash-after-answer is sent (the mock answers it 404), then the process crashes with an uncaught exception,
// as a bug of the mock would, before the request log's next batch is written: only the exit writes that line.
import http from "node:http";

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, request, response, ...rest) {
  if (event === "request" && request.url === "/crash-after-answer") {
    response.once("finish", () =>
      process.nextTick(() => {
        throw new Error("crash after an answer, for the test");
      }),
    );
  }
  return emit.call(this, event, request, response, ...rest);
};
