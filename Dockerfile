# The stateful mock of the Property Listing Service, for integration suites that start it as a container.
# test/docker/docker-files.test.ts replays this file without an engine: each stage in a folder of its own, its
# COPY (from the build context or, with --from, from an earlier stage's folder) and RUN steps in order, then the
# last stage's CMD and HEALTHCHECK on the host. Keep the instructions in the forms that test parses: JSON arrays
# for CMD and HEALTHCHECK, one path or more per COPY, RUN steps that are npm, node or npx commands (or the few it
# knows to touch only the image outside /app). test/docker/container.test.ts builds it and runs the image on a Docker
# engine.
#
# Node 20.20.2: the release this repository is tested on, within package.json's ">=20.19"; an exact version,
# so that a rebuild does not change Node under the mock. Debian bookworm slim: glibc, on which the build stage's
# prebuilt binaries (esbuild, under tsx) run, and no compiler or curl we do not need. Add the digest
# (node:20.20.2-bookworm-slim@sha256:...) when rebuilds must be byte-for-byte the same. Where no image registry is
# reachable (this repository's CI), scripts/docker/stand-in-base.sh makes a local stand-in of the same Debian release
# and Node version under this name, read from the FROM line, and this file builds on it unchanged.

# Stage 1: compile the mock to JavaScript (dist/), with every dependency, dev ones included.
FROM node:20.20.2-bookworm-slim AS build

WORKDIR /app

# Dependencies first, so that editing the mock does not reinstall them. --ignore-scripts: the package's own
# prepare would build before the sources are here (the build is the step below), and no dependency needs its
# install script: esbuild's only checks its binary, which comes in the @esbuild/<platform> package all the same,
# @scarf/scarf's (under swagger-ui-dist) only sends install analytics, and those of ssh2 and cpu-features (under
# testcontainers, which the build does not use) only compile optional native add-ons.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts

# `npm run build`: tsc with tsconfig.build.json, scripts/prune-dist.ts (nothing to prune in a fresh stage), then
# scripts/copy-docs-assets.ts copies the few files of swagger-ui-dist the /docs page serves into
# dist/docs-assets/, and scripts/bundle-bin.ts bundles the mock's bin into the one file dist/cli/mock.js
# (esbuild), which starts faster than some 75 modules, and the contract runner's into dist/cli/contract.js.
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/prune-dist.ts scripts/copy-docs-assets.ts scripts/bundle-bin.ts ./scripts/
COPY src ./src
RUN npm run build

# Stage 2: what runs. The runtime dependencies only, package.json's six: ajv and ajv-formats (the contract's
# validators), yaml (the contract's document), json-server (the raw records under /__db), which the mock uses, and
# fast-check and undici (its proxy agent, loaded only when HTTP(S)_PROXY is set), which only the contract runner
# uses; then the built JavaScript, and what it reads: package.json (ESM, the version), the contract, the seed data.
# No TypeScript, no loader, no sources, no optional peer.
FROM node:20.20.2-bookworm-slim

WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# Owned by root, so the mock cannot change its own code.
COPY --from=build /app/dist ./dist
COPY spec ./spec
COPY fixtures ./fixtures

# A place for `--db /data/db.json` (a volume mounted here starts with this owner).
RUN mkdir -p /data && chown node:node /data
USER node

ENV HOST=0.0.0.0 PORT=4010
EXPOSE 4010

# node itself, as slim images have no curl; 127.0.0.1 rather than localhost, which may resolve to ::1 while
# the mock listens on IPv4. The script reads PORT, so overriding PORT keeps the check right.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/healthz', \
    { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), \
    () => process.exit(1))"]

# node is PID 1 with no npm in between, so `docker stop`'s SIGTERM reaches the mock, which closes its
# connections, writes any --db state and exits 0. Pass options through the environment (PORT, HOST, BASE_URL,
# MOCK_DB); for the others (--quiet, --accounts, ...) repeat this whole array and append them, as a command given
# to `docker run` or compose replaces it.
CMD ["node", "dist/cli/mock.js"]
