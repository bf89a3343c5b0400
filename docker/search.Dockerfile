# Travel search service (apps/search). Build from the repository root, which is the build context:
#
#   docker build -f docker/search.Dockerfile -t road-trip-search:1.2.3 \
#     --build-arg VERSION_TAG=1.2.3 --build-arg BUILD_DATE="$(date -u +%Y-%m-%dT%H:%M:%SZ)" .
#
# The image serves `node dist/main.js` on port 3001; `node dist/cli/reindex.js` rebuilds the index in
# the foreground (the CronJob of k8s/). It runs
# migrations only when asked: `node dist/database/migrate.js` (the Kubernetes Job, once per
# release), or DB_MIGRATE_ON_START=true. Both stages run on the target platform, so the native
# packages pnpm installs (sharp's prebuilt binaries, for one) match the image's CPU and glibc.

FROM node:24.21.0-bookworm-slim AS build
# The pnpm of package.json's packageManager (pnpm check:deploy compares the two).
ARG PNPM_VERSION=10.34.9
RUN npm install -g "pnpm@${PNPM_VERSION}" --no-fund --no-audit --loglevel=error
WORKDIR /workspace

# Dependencies first: this layer changes only with the lockfile.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --frozen-lockfile

# Every workspace manifest, so the frozen lockfile matches the workspace it describes.
COPY package.json tsconfig.base.json ./
COPY apps/backend/package.json apps/backend/
COPY apps/search/package.json apps/search/
COPY libs/client/package.json libs/client/
COPY libs/contracts/package.json libs/contracts/
COPY libs/database/package.json libs/database/
COPY libs/errors/package.json libs/errors/
COPY libs/platform/package.json libs/platform/
COPY libs/telemetry/package.json libs/telemetry/
COPY libs/testing/package.json libs/testing/
COPY examples/typed-client/package.json examples/typed-client/
RUN pnpm install --frozen-lockfile --offline
# What writes the image's SBOM (below), from the generator that install put in node_modules.
COPY docker/sbom.mjs ./docker/

# The sources: the libraries and this app only.
COPY libs ./libs
COPY apps/search ./apps/search
# Compile the app and the libraries it references, then keep only what runs in /out: the files
# each package.json lists (`files`: its dist/), the libraries as copies of theirs, and the
# production dependencies. The deploy installs from the workspace lockfile (injected workspace
# packages), so the store that `pnpm fetch` filled is all it needs offline; `--legacy` resolved
# again and asked for registry metadata the store does not keep (ERR_PNPM_NO_OFFLINE_META).
# Then the CycloneDX SBOM of exactly that folder: /out/sbom.cdx.json (docker/sbom.mjs).
RUN pnpm --filter search build \
  && pnpm --filter search deploy --prod --offline --config.inject-workspace-packages=true /out \
  && node docker/sbom.mjs /out

FROM node:24.21.0-bookworm-slim AS runtime
# HOST: every interface, so that the port published or the pod's address reaches the process (a
# run outside an image listens on loopback only); pnpm check:deploy asserts it.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3001 \
  DATA_DIR=/data/database
WORKDIR /app
# Owned by root, so the process (user node, uid 1000) cannot change its own code. /data is only
# for the embedded database of a run without DATABASE_URL.
COPY --from=build /out /app
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
EXPOSE 3001
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3001) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Build values, last so that a new tag reuses every layer above; the process reads them.
ARG VERSION_TAG=""
ARG BUILD_DATE=""
ENV VERSION_TAG=${VERSION_TAG} \
  BUILD_DATE=${BUILD_DATE}
# org.opencontainers.image.sbom: where the image keeps its CycloneDX SBOM (k8s/README.md).
LABEL org.opencontainers.image.title="road-trip-search" \
  org.opencontainers.image.sbom="/app/sbom.cdx.json" \
  org.opencontainers.image.version="${VERSION_TAG}" \
  org.opencontainers.image.created="${BUILD_DATE}"
CMD ["node", "dist/main.js"]
