/**
 * A page's files served on loopback, as a dev server would serve a built app: what the browser tests load into
 * Chromium. Each request's path is told to `onRequest` (a test may check what the page fetched from the network).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** Files by path (`/app.js`), each with its content-type and text. */
export type SiteFiles = Record<string, [contentType: string, text: string]>;

export interface StaticSite {
  origin: string;
  close(): void;
}

export async function serveStaticSite(
  files: SiteFiles,
  onRequest: (method: string, path: string) => void = () => {},
): Promise<StaticSite> {
  const site = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    onRequest(request.method ?? "GET", path);
    const file = files[path];
    response.statusCode = file ? 200 : 404;
    response.setHeader("content-type", file?.[0] ?? "text/plain");
    response.end(file?.[1] ?? "not here");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`, close: () => site.close() };
}
