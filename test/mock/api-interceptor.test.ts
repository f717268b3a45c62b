/**
 * The seam around the API handler: interceptors run outermost first, see the call before and, in the value the
 * handler gave, the final reply and what was learned after; they may answer without the handler.
 */
import { describe, expect, it } from "vitest";
import {
  wrapApiHandler,
  type Answered,
  type ApiCall,
  type ApiInterceptor,
} from "../../src/mock/http/api-interceptor.ts";
import { plainRequest } from "../../src/mock/http/mock-request.ts";
import { okReply, problemReply } from "../../src/mock/http/reply.ts";

const request = plainRequest({ method: "GET", url: "/api/v1/object/template_base?x=1" });
const call = (): ApiCall => ({
  request,
  method: "GET",
  url: "/api/v1/object/template_base?x=1",
  path: "/api/v1/object/template_base",
  receivedAt: 0,
});

describe("wrapApiHandler", () => {
  it("is the handler itself when there is no interceptor", () => {
    const handler = async (): Promise<Answered> => ({ reply: okReply({}) });
    expect(wrapApiHandler(handler)).toBe(handler);
    expect(wrapApiHandler(handler, [])).toBe(handler);
  });

  it("runs interceptors outermost first around the handler, each reading what was learned from the value", async () => {
    const seen: string[] = [];
    const tracing =
      (name: string): ApiInterceptor =>
      async (exchange, next) => {
        seen.push(`${name} before ${exchange.path}`);
        const answered = await next(exchange);
        seen.push(`${name} after ${answered.operationId} ${answered.reply?.status}`);
        return answered;
      };
    const given = call();
    const handler = async (exchange: ApiCall): Promise<Answered> => {
      seen.push("handler");
      expect(exchange).toBe(given);
      return { reply: okReply({ templates: [] }), operationId: "retrieveTemplateCatalogue" };
    };
    const answered = await wrapApiHandler(handler, [tracing("outer"), tracing("inner")])(given);
    expect(answered).toEqual({ reply: okReply({ templates: [] }), operationId: "retrieveTemplateCatalogue" });
    // The call is the request as received: nothing was written onto it on the way.
    expect(given).toEqual(call());
    expect(seen).toEqual([
      "outer before /api/v1/object/template_base",
      "inner before /api/v1/object/template_base",
      "handler",
      "inner after retrieveTemplateCatalogue 200",
      "outer after retrieveTemplateCatalogue 200",
    ]);
  });

  it("lets an interceptor answer without the handler, and replace the handler's reply", async () => {
    let ran = 0;
    const handler = async (): Promise<Answered> => {
      ran += 1;
      return { reply: okReply({}) };
    };
    const fault: ApiInterceptor = async () => ({ reply: problemReply({ problem: "notFound", detail: "injected" }) });
    expect((await wrapApiHandler(handler, [fault])(call())).reply?.status).toBe(404);
    expect(ran).toBe(0);

    const replacing: ApiInterceptor = async (exchange, next) => {
      const answered = await next(exchange);
      return answered.reply?.status === 200
        ? { ...answered, reply: problemReply({ problem: "internalError", detail: "x" }) }
        : answered;
    };
    expect((await wrapApiHandler(handler, [replacing])(call())).reply?.status).toBe(500);
    expect(ran).toBe(1);
  });

  it("answers at once when neither the handler nor an interceptor waits, and as a promise when one does", async () => {
    const handler = (): Answered => ({ reply: okReply({ templates: [] }), operationId: "retrieveTemplateCatalogue" });
    const passing: ApiInterceptor = (exchange, next) => next(exchange);
    const answer = wrapApiHandler(handler, [passing, passing])(call());
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as Answered).reply?.status).toBe(200);

    const waiting: ApiInterceptor = async (exchange, next) => next(exchange);
    const later = wrapApiHandler(handler, [passing, waiting])(call());
    expect(later).toBeInstanceOf(Promise);
    expect((await later).reply?.status).toBe(200);
  });
});
