/**
 * A forwarding HTTP proxy on loopback, as a CI machine's egress proxy works: an http:// request comes in absolute
 * form (`GET http://host:port/path`) and is forwarded; an https:// one comes as `CONNECT host:port` and is tunnelled
 * byte for byte (TLS stays end to end). It records what it carried, so a test sees that every request went through
 * it, or none did. `requireAuth` answers 407 to a request without that Proxy-Authorization.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface ProxiedHop {
  kind: "absolute" | "connect";
  /** `http://127.0.0.1:4010/api/v1/object/template_base` for absolute form, `127.0.0.1:8443` for CONNECT. */
  target: string;
  method: string;
}

export interface ForwardingProxy {
  url: string;
  hops: ProxiedHop[];
  close(): Promise<void>;
}

export async function startForwardingProxy({ requireAuth }: { requireAuth?: string } = {}): Promise<ForwardingProxy> {
  const hops: ProxiedHop[] = [];
  const sockets = new Set<Socket>();
  const allowed = (header: string | undefined) => requireAuth === undefined || header === requireAuth;
  const server: Server = createServer((incoming, outgoing) => {
    const target = incoming.url ?? "";
    if (!/^http:\/\//.test(target)) {
      outgoing.writeHead(400).end("a proxy takes absolute-form requests");
      return;
    }
    if (!allowed(incoming.headers["proxy-authorization"])) {
      outgoing.writeHead(407, { "proxy-authenticate": "Basic" }).end();
      return;
    }
    hops.push({ kind: "absolute", target, method: incoming.method ?? "GET" });
    const url = new URL(target);
    const headers = { ...incoming.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const forward = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => (outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end()));
    incoming.pipe(forward);
  });
  server.on("connect", (incoming, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (!allowed(incoming.headers["proxy-authorization"])) {
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n");
      return;
    }
    const target = incoming.url ?? "";
    hops.push({ kind: "connect", target, method: "CONNECT" });
    const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.slice(target.lastIndexOf(":") + 1))];
    const upstream = connect(port, host.replace(/^\[|\]$/g, ""), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hops,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
