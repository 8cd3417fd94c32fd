# syntax=docker/dockerfile:1
# The gateway as a container image (docs/deployment.md). The default command is `npm start`: the
# API, the pages and the built-in worker, on the embedded database under /data unless DATABASE_URL
# is set. `npm run worker` as the command runs a worker-only container.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- dependencies, dev dependencies included: `next build` type-checks the whole project ---
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# `npm ci` refuses this lock file: the registry lacks other platforms' optional packages (e.g.
# litesvm-darwin-arm64), which npm therefore leaves out of it. `npm install` installs exactly the
# locked versions, as .ci/run does; .npmrc keeps install scripts off.
RUN npm install --no-audit --no-fund

# --- build: the Prisma client and the Next build, stamped as `npm start` expects them ---
FROM deps AS build
COPY . .
# The lock file is part of the build's fingerprint: kept byte for byte (and its mtime) across the prune.
RUN npx tsx deploy/prepare-image.ts \
 && cp -p package-lock.json /tmp/package-lock.json \
 && npm prune --omit=dev --no-audit --no-fund \
 && mv /tmp/package-lock.json package-lock.json

# --- runtime: non-root, the build and the production dependencies only ---
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    GATEWAY_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
# Fails the image build if `npm start` would have to build again at run time.
RUN npx tsx deploy/prepare-image.ts --verify
# The embedded database, the generated master key and other local state (one `npm start` only;
# several processes share a PostgreSQL server through DATABASE_URL instead).
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
CMD ["npm", "start"]
