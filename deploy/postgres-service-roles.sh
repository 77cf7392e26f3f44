#!/bin/sh
# Run once by the postgres image on an empty data directory (/docker-entrypoint-initdb.d): the login roles
# of the api, the worker, the indexer, the signer and the webhook worker. Their rights are granted by
# `npm run migrate`, every run (db/serviceRoles.ts). Passwords reach psql as variables and are quoted by it
# (:'name'), never spliced.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v api="$CHECKOUT_API_DB_PASSWORD" -v worker="$CHECKOUT_WORKER_DB_PASSWORD" -v indexer="$CHECKOUT_INDEXER_DB_PASSWORD" \
  -v signer="$CHECKOUT_SIGNER_DB_PASSWORD" -v webhooks="$CHECKOUT_WEBHOOKS_DB_PASSWORD" <<'SQL'
create role checkout_api login password :'api';
create role checkout_worker login password :'worker';
create role checkout_indexer login password :'indexer';
create role checkout_signer login password :'signer';
create role checkout_webhooks login password :'webhooks';
SQL
