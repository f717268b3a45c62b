/** Which requests go through a proxy, read as curl reads HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY. */
import { describe, expect, it } from "vitest";
import { bypassesProxy, proxyFor, readProxySettings, shownAddress } from "../../src/contract/runner/proxy-settings.ts";

describe("readProxySettings", () => {
  it("reads each variable lower case first; ALL_PROXY for a scheme without its own; bare host:port is http://", () => {
    expect(
      readProxySettings({
        http_proxy: "http://lower:1",
        HTTP_PROXY: "http://upper:2",
        HTTPS_PROXY: "proxy.corp:3128",
        NO_PROXY: "localhost",
      }),
    ).toEqual({
      httpProxy: "http://lower:1",
      httpsProxy: "http://proxy.corp:3128",
      noProxy: "localhost",
    });
    expect(readProxySettings({ ALL_PROXY: "http://all:3", https_proxy: "" })).toEqual({
      httpProxy: "http://all:3",
      httpsProxy: "http://all:3",
    });
    expect(readProxySettings({})).toEqual({});
  });

  it("takes the proxy by the address's scheme: HTTP_PROXY is not used for https:// (as curl)", () => {
    const settings = readProxySettings({ HTTP_PROXY: "http://p:1" });
    expect(proxyFor("http://service.example/x", settings)).toBe("http://p:1");
    expect(proxyFor("https://service.example/x", settings)).toBeUndefined();
  });

  it("never shows the proxy's password", () => {
    expect(shownAddress("http://ci:s3cret@proxy.corp:3128")).toBe("http://***@proxy.corp:3128");
  });
});

describe("NO_PROXY", () => {
  const cases: Array<[string, string, number, boolean]> = [
    ["example.com", "example.com", 443, true],
    ["example.com", "api.example.com", 443, true],
    [".example.com", "api.example.com", 443, true],
    [".example.com", "example.com", 443, true],
    ["*.example.com", "api.example.com", 443, true],
    ["example.com", "notexample.com", 443, false],
    ["EXAMPLE.com", "Api.Example.COM", 443, true],
    ["*", "anything.at.all", 80, true],
    ["a.test, b.test ,c.test", "b.test", 80, true],
    ["a.test b.test", "b.test", 80, true],
    ["example.com:8443", "api.example.com", 8443, true],
    ["example.com:8443", "api.example.com", 443, false],
    ["127.0.0.1", "127.0.0.1", 4010, true],
    ["127.0.0.1", "127.0.0.10", 4010, false],
    ["10.0.0.0/8", "10.1.2.3", 80, true],
    ["10.0.0.0/8", "11.1.2.3", 80, false],
    ["::1", "[::1]", 80, true],
    ["[::1]:8080", "[::1]", 8080, true],
    ["[::1]:8080", "[::1]", 80, false],
    ["fd00::/8", "[fd12::1]", 80, true],
    ["", "example.com", 80, false],
    ["1.2.3.4", "x1.2.3.4", 80, false],
  ];
  for (const [noProxy, host, port, direct] of cases) {
    it(`${JSON.stringify(noProxy)} ${direct ? "sends" : "does not send"} ${host}:${port} directly`, () => {
      expect(bypassesProxy(host, port, noProxy)).toBe(direct);
    });
  }

  it("applies to the address's default port when it names none", () => {
    expect(
      proxyFor("https://api.example.com/x", { httpsProxy: "http://p:1", noProxy: "example.com:443" }),
    ).toBeUndefined();
    expect(proxyFor("https://api.example.com:8443/x", { httpsProxy: "http://p:1", noProxy: "example.com:443" })).toBe(
      "http://p:1",
    );
  });
});
