# The stateful mock of the Property Listing Service, for integration suites that start it as a container.
# test/docker/docker-files.test.ts runs this file's CMD and HEALTHCHECK on the host and rebuilds its file set
# in a temporary directory with the same `npm ci`, so keep the instructions in the forms that test parses:
# JSON arrays for CMD and HEALTHCHECK, one path or more per COPY.
#
# Node 20.20.2: the release this repository is tested on, within package.json's ">=20.19"; an exact version,
# so that a rebuild does not change Node under the mock. Debian bookworm slim: glibc, on which esbuild's
# prebuilt binary (used by tsx) runs, and no compiler or curl we do not need. Add the digest
# (node:20.20.2-bookworm-slim@sha256:...) when rebuilds must be byte-for-byte the same.
FROM node:20.20.2-bookworm-slim

WORKDIR /app

# Dependencies first, so that editing the mock does not reinstall them. Runtime dependencies only: tsx runs
# the TypeScript sources, nothing is compiled ahead. --ignore-scripts: npm ci also runs the package's own
# lifecycle scripts, and a prepare that builds with tsc fails without the dev dependencies. Among the
# dependencies only esbuild has an install script, which merely checks its binary; that binary comes in the
# @esbuild/<platform> optional package all the same.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# What the mock reads at run time: its sources (loaded by tsx, which honours tsconfig.json), the contract it
# serves and validates against, and the seed data. Owned by root, so the mock cannot change its own code.
COPY tsconfig.json ./
COPY src ./src
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
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/healthz', { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]

# node is PID 1 with no npm or tsx wrapper in between, so `docker stop`'s SIGTERM reaches the mock, which
# closes its connections, writes any --db state and exits 0. Pass options through the environment (PORT,
# HOST, BASE_URL, MOCK_DB); for the others (--quiet, --accounts, ...) repeat this whole array and append them,
# as a command given to `docker run` or compose replaces it.
CMD ["node", "--import", "tsx", "src/cli/mock.ts"]
