/**
 * The seam around the API handler: interceptors run outermost first, see the call before and the final reply
 * after, and may answer without the handler.
 */
import { describe, expect, it } from "vitest";
import { wrapApiHandler, type ApiCall, type ApiInterceptor } from "../../src/mock/http/api-interceptor.ts";
import { plainRequest } from "../../src/mock/http/mock-request.ts";
import { okReply, problemReply, type Reply } from "../../src/mock/http/reply.ts";

const call = (): ApiCall => ({
  request: plainRequest({ method: "GET", url: "/api/v1/object/template_base?x=1" }),
  method: "GET",
  url: "/api/v1/object/template_base?x=1",
  path: "/api/v1/object/template_base",
  receivedAt: 0,
});

describe("wrapApiHandler", () => {
  it("is the handler itself when there is no interceptor", () => {
    const handler = async () => okReply({});
    expect(wrapApiHandler(handler)).toBe(handler);
    expect(wrapApiHandler(handler, [])).toBe(handler);
  });

  it("runs interceptors outermost first around the handler, each seeing what it filled in and its reply", async () => {
    const seen: string[] = [];
    const tracing =
      (name: string): ApiInterceptor =>
      async (exchange, next) => {
        seen.push(`${name} before ${exchange.operationId ?? "-"}`);
        const reply = await next(exchange);
        seen.push(`${name} after ${exchange.operationId} ${reply?.status}`);
        return reply;
      };
    const handler = async (exchange: ApiCall): Promise<Reply> => {
      seen.push("handler");
      exchange.operationId = "retrieveTemplateCatalogue";
      return okReply({ templates: [] });
    };
    const reply = await wrapApiHandler(handler, [tracing("outer"), tracing("inner")])(call());
    expect(reply).toEqual(okReply({ templates: [] }));
    expect(seen).toEqual([
      "outer before -",
      "inner before -",
      "handler",
      "inner after retrieveTemplateCatalogue 200",
      "outer after retrieveTemplateCatalogue 200",
    ]);
  });

  it("lets an interceptor answer without the handler, and replace the handler's reply", async () => {
    let ran = 0;
    const handler = async () => {
      ran += 1;
      return okReply({});
    };
    const fault: ApiInterceptor = async () => problemReply({ problem: "notFound", detail: "injected" });
    expect((await wrapApiHandler(handler, [fault])(call()))?.status).toBe(404);
    expect(ran).toBe(0);

    const replacing: ApiInterceptor = async (exchange, next) =>
      (await next(exchange))?.status === 200 ? problemReply({ problem: "internalError", detail: "x" }) : undefined;
    expect((await wrapApiHandler(handler, [replacing])(call()))?.status).toBe(500);
    expect(ran).toBe(1);
  });

  it("answers at once when neither the handler nor an interceptor waits, and as a promise when one does", async () => {
    const handler = (exchange: ApiCall): Reply => {
      exchange.operationId = "retrieveTemplateCatalogue";
      return okReply({ templates: [] });
    };
    const passing: ApiInterceptor = (exchange, next) => next(exchange);
    const answer = wrapApiHandler(handler, [passing, passing])(call());
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as Reply).status).toBe(200);

    const waiting: ApiInterceptor = async (exchange, next) => next(exchange);
    const later = wrapApiHandler(handler, [passing, waiting])(call());
    expect(later).toBeInstanceOf(Promise);
    expect((await later)?.status).toBe(200);
  });
});
