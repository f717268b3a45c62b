import type { RequestHandler } from "express";

const DEFAULT_ALLOWED_HEADERS = "API-KEY, TOKEN, Content-Type";

/**
 * Open CORS for browsers: any origin, and a preflight that allows the API-KEY and TOKEN headers (and any other
 * header the browser asks for), so a front end served from another port can call the mock.
 */
export function cors(): RequestHandler {
  return (request, response, next) => {
    response.setHeader("Access-Control-Allow-Origin", "*");
    response.setHeader("Access-Control-Expose-Headers", "Allow, Content-Type");
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"]) {
      response.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS");
      response.setHeader("Access-Control-Allow-Headers", request.headers["access-control-request-headers"] ?? DEFAULT_ALLOWED_HEADERS);
      response.setHeader("Access-Control-Max-Age", "600");
      response.setHeader("Vary", "Access-Control-Request-Headers");
      response.statusCode = 204;
      response.end();
      return;
    }
    next();
  };
}
