/**
 * `import { PropertyListingMockContainer } from "property-listing-kit/testcontainers"`: the mock as a container of
 * Testcontainers for Node (`testcontainers`, an optional peer dependency: install it beside the kit). It starts from
 * an image of the kit's Dockerfile, by name or built from a clone of the repository, waits until the mock answers
 * /healthz, and gives the base URL and the credentials to call it with.
 *
 * @example
 * const mock = await new PropertyListingMockContainer("property-listing-mock:latest").start();
 * const response = await fetch(`${mock.getBaseUrl()}/api/v1/object/agent_cards`, { headers: mock.getHeaders() });
 * await mock.stop();
 *
 * Nothing else in the kit imports this module, so the core and the bins never need `testcontainers`.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import type { AccountConfig } from "./mock/account-config.ts";
import { PACKAGE_ROOT } from "./package-root.ts";

/** The port the image's mock listens on (its ENV PORT and EXPOSE). */
export const MOCK_PORT = 4010;
/** The name the README's `docker build -t property-listing-mock .` gives the image. */
export const DEFAULT_IMAGE = "property-listing-mock:latest";
/** The seeded demo account (fixtures/db.json), which the mock admits unless `withAccounts` lists others. */
export const DEMO_CREDENTIALS: Credentials = { apiKey: "demo-key", token: "demo-token" };

export interface Credentials {
  apiKey: string;
  token: string;
}

/**
 * An entry of `--accounts`: only these accounts are admitted, and none opens on first use. Its `uid` and
 * `agentSeats` are the mock's own account options (give the uid of seeded data, 1 the demo account's, to reach it).
 */
export interface MockAccount extends Credentials, Pick<AccountConfig, "uid" | "agentSeats"> {}

export interface BuildOptions {
  /**
   * The folder holding the kit's Dockerfile and what it copies: a clone of the repository. By default, the folder of
   * this package when that is a clone (an installed package has no Dockerfile, package-lock.json or build scripts).
   */
  context?: string;
  /** The image's name; by default a new one, which Testcontainers' reaper (Ryuk) removes at the end of the session. */
  tag?: string;
}

/** Where the container finds the files this module copies into it. */
const CONFIG_DIR = "/home/node/property-listing-kit";

export class PropertyListingMockContainer extends GenericContainer {
  private readonly mockArgs: string[] = [];
  private credentials: Credentials = DEMO_CREDENTIALS;

  /** A container of an image built from the kit's Dockerfile, by name (default `property-listing-mock:latest`). */
  constructor(image = DEFAULT_IMAGE) {
    super(image);
    this.withExposedPorts(MOCK_PORT)
      .withWaitStrategy(Wait.forHttp("/healthz", MOCK_PORT, { abortOnContainerExit: true }).forStatusCode(200))
      .withStartupTimeout(120_000);
  }

  /**
   * Builds the kit's Dockerfile (the engine's classic builder, as everywhere it has no BuildKit) and answers a
   * container of the image. Its base image is pulled when missing, as `docker build` does.
   */
  static async build(options: BuildOptions = {}): Promise<PropertyListingMockContainer> {
    const context = options.context ?? PACKAGE_ROOT;
    for (const needed of ["Dockerfile", "package-lock.json", "scripts/bundle-bin.ts"]) {
      if (!existsSync(join(context, needed))) {
        throw new Error(
          `${join(context, needed)} is missing: building the image needs a clone of the kit's repository ` +
            "(pass its folder as { context }), or build it once with `docker build -t property-listing-mock .` " +
            'there and start from the name: new PropertyListingMockContainer("property-listing-mock:latest")',
        );
      }
    }
    const tag = options.tag ?? `localhost/property-listing-mock:${randomUUID()}`;
    await GenericContainer.fromDockerfile(context).build(tag, { deleteOnExit: options.tag === undefined });
    return new PropertyListingMockContainer(tag);
  }

  /**
   * Keeps the state in a file across restarts of the container (`--db`, through MOCK_DB): by default
   * /data/db.json, in the folder the image makes for it (owned by the node user; mount a volume there to keep it
   * beyond the container).
   */
  withDb(path = "/data/db.json"): this {
    return this.withEnvironment({ MOCK_DB: path });
  }

  /**
   * Answers as a service profile says the real service does (`--profile`, through MOCK_PROFILE): the profile's
   * JSON text, or the object, as `property-listing-contract --write-profile` wrote it. A profile the mock refuses
   * stops its start, and so fails `start()`.
   */
  withProfile(profile: string | object): this {
    const target = `${CONFIG_DIR}/profile.json`;
    return this.withCopyContentToContainer([
      { content: typeof profile === "string" ? profile : JSON.stringify(profile), target, mode: 0o644 },
    ]).withEnvironment({ MOCK_PROFILE: target });
  }

  /** Admits only these accounts (`--accounts`); `getCredentials()` then answers the first. */
  withAccounts(accounts: MockAccount[]): this {
    if (accounts.length === 0) throw new Error("withAccounts needs at least one account");
    const target = `${CONFIG_DIR}/accounts.json`;
    this.credentials = { apiKey: accounts[0]!.apiKey, token: accounts[0]!.token };
    this.mockArgs.push("--accounts", target);
    return this.withCopyContentToContainer([{ content: JSON.stringify(accounts), target, mode: 0o644 }]);
  }

  /** Further options of the mock (`--quiet`, `--latency 100`, ...), after the image's command. */
  withMockArgs(...args: string[]): this {
    this.mockArgs.push(...args);
    return this;
  }

  override async start(): Promise<StartedPropertyListingMockContainer> {
    if (this.mockArgs.length > 0) this.withCommand(["node", "dist/cli/mock.js", ...this.mockArgs]);
    return new StartedPropertyListingMockContainer(await super.start(), this.credentials);
  }
}

export class StartedPropertyListingMockContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly credentials: Credentials,
  ) {
    super(started);
  }

  /** Where the host reaches the mock: `http://<host>:<mapped port>`, with no trailing slash. */
  getBaseUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(MOCK_PORT)}`;
  }

  /** The demo account's keys, or with `withAccounts` the first account listed. */
  getCredentials(): Credentials {
    return this.credentials;
  }

  /** The headers of an API request with those credentials: API-KEY, TOKEN and content-type. */
  getHeaders(credentials: Credentials = this.credentials): Record<string, string> {
    return { "API-KEY": credentials.apiKey, TOKEN: credentials.token, "content-type": "application/json" };
  }
}
