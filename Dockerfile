# One image for every Upstate service; UPSTATE_SERVICES picks what a container runs.
# Build: docker build -t upstate .   (podman: see scripts/stack-test.sh for building offline)
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

# 1. Everything needed to build: all dependencies, the SvelteKit builds, the Prisma client.
FROM ${NODE_IMAGE} AS build
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
COPY status/package.json status/
COPY probe/package.json probe/
COPY proto/package.json proto/
COPY cli/package.json cli/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only (no Vite, Svelte compiler, test tools).
FROM ${NODE_IMAGE} AS deps
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
COPY status/package.json status/
COPY probe/package.json probe/
COPY proto/package.json proto/
COPY cli/package.json cli/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/node_modules/.prisma node_modules/.prisma

# 3. The image: production dependencies, the builds and the server's TypeScript (run by Node 24
# directly), as the unprivileged `node` user.
FROM ${NODE_IMAGE}
# The built-in Local probe's ICMP checks run the system ping (Node has no ICMP API).
RUN apt-get update && apt-get install -y --no-install-recommends iputils-ping \
	&& rm -rf /var/lib/apt/lists/* \
	&& mkdir -p /data && chown node:node /data
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data SELF_HOST=true
COPY --from=deps /app/node_modules node_modules
COPY package.json prisma.config.ts ./
COPY prisma prisma
COPY server/package.json server/
COPY server/src server/src
COPY probe/package.json probe/
COPY probe/src probe/src
# The /rpc and probe ↔ ingest contracts (@upstate/proto): the server imports them at run time.
COPY proto proto
COPY web/package.json web/
COPY status/package.json status/
COPY --from=build /app/web/build web/build
COPY --from=build /app/status/build status/build
USER node
VOLUME /data
EXPOSE 3000 3001 3002 3003 8080 8081
# Answers healthy once every service this container runs (UPSTATE_SERVICES) answers on its port.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
	CMD ["node", "server/src/healthcheck.ts"]
CMD ["node", "server/src/main.ts"]
