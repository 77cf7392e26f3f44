# One image for every service process (api, worker, indexer, migrate); docker-compose.yml chooses the command.
# test/ops/compose.test.ts checks that it copies every folder those processes load.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci`: exactly the lockfile's versions and integrity hashes, or a failed build, never a fresh resolution.
# The dev dependencies are dropped first because one of them (litesvm) names platform builds the registry never
# published, so no lockfile can list them and `npm ci` would refuse the whole tree (toolchain/bootstrap.mjs).
RUN npm pkg delete devDependencies && npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production APP_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY api ./api
COPY activities ./activities
COPY bin ./bin
COPY config ./config
COPY contracts ./contracts
COPY db ./db
COPY domain ./domain
COPY indexers ./indexers
COPY observability ./observability
COPY page ./page
COPY signer ./signer
COPY worker ./worker
COPY workflows ./workflows
USER node
# 3000: the API; 9464 and 9465: the worker's and the indexer's Prometheus endpoints when enabled.
EXPOSE 3000 9464 9465
CMD ["npm", "run", "api"]
