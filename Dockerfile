# The data-space node. Build: docker build -t dataspace-node .   Run: see compose.yaml and docs/operations.md.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
# npm ci runs the prepare script, which compiles dist/; the dev tools are dropped after.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production DATASPACE_DATA_DIR=/data PORT=3000
WORKDIR /app
COPY --from=build --chown=root:root /app /app
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# /readyz is 503 while the store recovers and 200 once the node serves.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/bundle/main.js"]
