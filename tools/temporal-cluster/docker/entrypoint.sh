#!/usr/bin/env bash
# The Temporal cluster's image (Dockerfile.temporal), one role per
# container, as docker-compose.yml runs it:
#   init       make the TLS files in /tls (once) and the PostgreSQL schema
#   serve SVC  run one service: frontend, history, matching or worker
#   setup      register the namespace and the search attributes
# The same server, config template and TLS as scripts/cluster.sh.
set -euo pipefail
T=/opt/temporal
PG_HOST=${PG_HOST:-postgresql}
PG_PORT=${PG_PORT:-5432}
FRONTEND=${FRONTEND_ADDRESS:-temporal-frontend:7233}

case ${1:-} in
init)
	"$T/make-tls.sh" /tls temporal-frontend
	# The worker (distroless nonroot) and the UI run as other users than
	# root: the client key and API key must be readable by them. /tls is
	# the compose project's own directory (.cluster/compose-tls).
	chmod 644 /tls/client-key.pem /tls/api-key
	sql=("$T/temporal-sql-tool" --plugin postgres12 --ep "$PG_HOST" -p "$PG_PORT" -u temporal --pw temporal)
	for db in temporal:temporal temporal_visibility:visibility; do
		name=${db%%:*} dir=${db##*:}
		# create-database and setup-schema fail harmlessly when done before.
		"${sql[@]}" --db "$name" create-database || true
		"${sql[@]}" --db "$name" setup-schema -v 0.0 || true
		"${sql[@]}" --db "$name" update-schema -d "$T/schema/postgresql/v12/$dir/versioned"
	done
	;;
serve)
	svc=${2:?serve what: frontend, history, matching or worker}
	ip=$(hostname -i | awk '{print $1}')
	sed -e "s/@PG@/$PG_HOST:$PG_PORT/g" -e "s/@BROADCAST@/$ip/" -e "s/@BIND@/bindOnIP: 0.0.0.0/" \
		-e "s/@FRONTEND_PORT@/7233/" -e "s/@FRONTEND_MEMBERSHIP@/6933/" -e "s/@FRONTEND_HTTP@/7243/" \
		-e "s/@HISTORY_PORT@/7234/" -e "s/@HISTORY_MEMBERSHIP@/6934/" \
		-e "s/@MATCHING_PORT@/7235/" -e "s/@MATCHING_MEMBERSHIP@/6935/" \
		-e "s/@WORKER_PORT@/7239/" -e "s/@WORKER_MEMBERSHIP@/6939/" \
		-e "s/@FRONTEND_ADDRESS@/$FRONTEND/" "$T/temporal.yaml.tmpl" >/tmp/temporal.yaml
	exec "$T/temporal-server" --config-file /tmp/temporal.yaml --tls-dir /tls --service "$svc"
	;;
setup)
	exec "$T/cluster-setup" -address "$FRONTEND" -namespace "${TEMPORAL_NAMESPACE:-default}" -tls-dir /tls
	;;
*)
	echo "usage: entrypoint.sh init | serve SERVICE | setup" >&2
	exit 2
	;;
esac
