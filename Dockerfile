# One image for every Upstate service; UPSTATE_SERVICES picks what a container runs.
FROM docker.io/library/node:24-bookworm-slim AS build
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
COPY status/package.json status/
COPY probe/package.json probe/
COPY proto/package.json proto/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM docker.io/library/node:24-bookworm-slim
# The built-in Local probe's ICMP checks run the system ping (Node has no ICMP API).
RUN apt-get update && apt-get install -y --no-install-recommends iputils-ping && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data
COPY --from=build /app /app
VOLUME /data
EXPOSE 3000 3001 3002 3003 8081
CMD ["node", "server/src/main.ts"]
