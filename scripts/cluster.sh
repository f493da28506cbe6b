#!/usr/bin/env bash
# A Temporal cluster on 127.0.0.1, beside scripts/services.sh (Neo4j,
# Weaviate): PostgreSQL (Debian's postgresql package) for persistence and
# visibility, and the Temporal server (go.temporal.io/server, the release
# the project uses) as four processes — frontend, history, matching and
# worker — with 16 history shards. The frontend speaks TLS only, with a
# self-signed CA made here, and admits a client that shows a certificate
# from that CA (mTLS) or the cluster's API key (Authorization: Bearer), as
# Temporal Cloud does; anything else is denied. The namespace and the
# workflows' search attributes are created through the operator API. Then
# Temporal's Web UI (autoscheduler temporal-ui), Neo4j and Weaviate
# (scripts/services.sh) and CLUSTER_WORKERS worker processes (bin/worker,
# default 2). Idempotent; data under .cluster/ (git-ignored), binaries
# cached in ~/.cache/autoscheduler/cluster (built from tools/temporal-cluster).
#
#   eval "$(scripts/cluster.sh up)"   # start (or find running), print env lines
#   scripts/cluster.sh env            # the env lines (mTLS)
#   scripts/cluster.sh workers N      # run exactly N worker processes
#   scripts/cluster.sh restart SVC    # restart one Temporal service (e.g. history)
#   scripts/cluster.sh down           # stop everything but Neo4j/Weaviate (data kept)
#   scripts/cluster.sh reset          # stop and delete .cluster/
#
# Ports (env): CLUSTER_PG_PORT (55432), CLUSTER_FRONTEND_PORT (7333; history,
# matching and worker use +1, +2, +6, membership 500 below each),
# CLUSTER_UI_PORT (8333).
#
# Progress goes to stderr; only `up` and `env` write to stdout.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${AUTOSCHEDULER_CACHE:-$HOME/.cache/autoscheduler}/cluster
DATA=$ROOT/.cluster
SRC=$ROOT/tools/temporal-cluster
TEMPORAL_VERSION=v1.32.1
PG_PORT=${CLUSTER_PG_PORT:-55432}
FRONTEND_PORT=${CLUSTER_FRONTEND_PORT:-7333}
SERVICES=(history matching frontend worker)
UI_PORT=${CLUSTER_UI_PORT:-8333}
TLS_DIR=$DATA/tls
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)

log() { printf 'cluster: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

print_env() {
	echo "export TEMPORAL_ADDRESS=127.0.0.1:$FRONTEND_PORT"
	echo "export TEMPORAL_NAMESPACE=default"
	echo "export TEMPORAL_TLS_CA=$TLS_DIR/ca.pem"
	echo "export TEMPORAL_TLS_CERT=$TLS_DIR/client.pem"
	echo "export TEMPORAL_TLS_KEY=$TLS_DIR/client-key.pem"
	echo "# or, instead of the client pair: export TEMPORAL_API_KEY=\$(cat $TLS_DIR/api-key)"
}

port_of() { # service -> gRPC port
	case $1 in
	frontend) echo "$FRONTEND_PORT" ;;
	history) echo $((FRONTEND_PORT + 1)) ;;
	matching) echo $((FRONTEND_PORT + 2)) ;;
	worker) echo $((FRONTEND_PORT + 6)) ;;
	esac
}

tcp_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# as_postgres runs a PostgreSQL server command as the postgres user when
# this script runs as root (PostgreSQL refuses to run as root).
as_postgres() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

build() {
	# Contents only (not paths): every checkout shares the cached build.
	local stamp=$CACHE/built-$TEMPORAL_VERSION-$(cat "$SRC/go.sum" $(find "$SRC" -name '*.go' ! -name '*_test.go' | sort) | sha256sum | cut -c1-12)
	if [ -f "$stamp" ] && [ -x "$CACHE/temporal-server" ]; then return; fi
	log "building the Temporal server $TEMPORAL_VERSION, its SQL tool and the setup (a few minutes the first time)"
	mkdir -p "$CACHE"
	# GOAMD64=v1: the cached binaries run on any x86-64, whatever the
	# environment of the machine that built them asked for.
	(cd "$SRC" && export GOAMD64=v1 && GOTOOLCHAIN=local go build -o "$CACHE/temporal-server" ./server &&
		GOTOOLCHAIN=local go build -o "$CACHE/temporal-sql-tool" go.temporal.io/server/cmd/tools/sql &&
		GOTOOLCHAIN=local go build -o "$CACHE/cluster-setup" ./setup) || die "build failed"
	rm -f "$CACHE"/built-*
	touch "$stamp"
}

start_postgres() {
	[ -n "$PGBIN" ] || die "PostgreSQL is not installed (apt-get install postgresql)"
	mkdir -p "$DATA/log"
	if [ ! -f "$DATA/pg/PG_VERSION" ]; then
		log "initdb $DATA/pg"
		mkdir -p "$DATA/pg"
		if [ "$(id -u)" = 0 ]; then chown postgres "$DATA/pg" "$DATA/log"; fi
		as_postgres "$PGBIN/initdb" -D "$DATA/pg" -A trust -U postgres --no-instructions >"$DATA/initdb.log" 2>&1 ||
			die "initdb failed: $(tail -3 "$DATA/initdb.log")"
	fi
	if ! as_postgres "$PGBIN/pg_ctl" -D "$DATA/pg" status >/dev/null 2>&1; then
		log "starting PostgreSQL on 127.0.0.1:$PG_PORT"
		as_postgres "$PGBIN/pg_ctl" -D "$DATA/pg" -l "$DATA/log/postgres.log" -o "-p $PG_PORT -h 127.0.0.1 -k /tmp" -w start >/dev/null ||
			die "PostgreSQL did not start: $(tail -5 "$DATA/log/postgres.log")"
	fi
	psql_q "SELECT 1 FROM pg_roles WHERE rolname='temporal'" | grep -q 1 ||
		psql_q "CREATE ROLE temporal LOGIN PASSWORD 'temporal' CREATEDB" >/dev/null
}

psql_q() { "$PGBIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -tAc "$1"; }

setup_schema() {
	local schema tool
	schema=$(cd "$SRC" && GOTOOLCHAIN=local go list -m -f '{{.Dir}}' go.temporal.io/server)/schema/postgresql/v12
	tool=("$CACHE/temporal-sql-tool" --plugin postgres12 --ep 127.0.0.1 -p "$PG_PORT" -u temporal --pw temporal)
	for db in temporal:temporal temporal_visibility:visibility; do
		local name=${db%%:*} dir=${db##*:}
		if ! psql_q "SELECT 1 FROM pg_database WHERE datname='$name'" | grep -q 1; then
			log "creating database $name"
			"${tool[@]}" --db "$name" create-database >"$DATA/log/schema-$name.log" 2>&1 || die "create $name: $(tail -2 "$DATA/log/schema-$name.log")"
			"${tool[@]}" --db "$name" setup-schema -v 0.0 >>"$DATA/log/schema-$name.log" 2>&1 || die "schema $name: $(tail -2 "$DATA/log/schema-$name.log")"
		fi
		# Idempotent: applies only the versions the database lacks.
		"${tool[@]}" --db "$name" update-schema -d "$schema/$dir/versioned" >>"$DATA/log/schema-$name.log" 2>&1 ||
			die "update schema $name: $(tail -2 "$DATA/log/schema-$name.log")"
	done
}

# write_config fills in the config template the Docker setup shares.
write_config() {
	mkdir -p "$DATA/config"
	local f=$FRONTEND_PORT h m w
	h=$(port_of history) m=$(port_of matching) w=$(port_of worker)
	sed -e "s/@PG@/127.0.0.1:$PG_PORT/g" -e "s/@BROADCAST@/127.0.0.1/" -e "s/@BIND@/bindOnLocalHost: true/" \
		-e "s/@FRONTEND_PORT@/$f/" -e "s/@FRONTEND_MEMBERSHIP@/$((f - 500))/" -e "s/@FRONTEND_HTTP@/$((f + 10))/" \
		-e "s/@HISTORY_PORT@/$h/" -e "s/@HISTORY_MEMBERSHIP@/$((h - 500))/" \
		-e "s/@MATCHING_PORT@/$m/" -e "s/@MATCHING_MEMBERSHIP@/$((m - 500))/" \
		-e "s/@WORKER_PORT@/$w/" -e "s/@WORKER_MEMBERSHIP@/$((w - 500))/" \
		-e "s/@FRONTEND_ADDRESS@/127.0.0.1:$f/" "$SRC/temporal.yaml.tmpl" >"$DATA/config/temporal.yaml"
	! grep -q '@[A-Z_]*@' "$DATA/config/temporal.yaml" || die "config template has an unfilled field"
}

# make_tls writes a CA, the frontend's certificate, a client pair and an
# API key under .cluster/tls, once.
make_tls() {
	[ -f "$TLS_DIR/api-key" ] && return
	log "making a CA, server and client certificates and an API key in $TLS_DIR"
	"$SRC/make-tls.sh" "$TLS_DIR" >"$DATA/log/tls.log" 2>&1 || die "openssl: $(tail -3 "$DATA/log/tls.log")"
}

pid_file() { echo "$DATA/$1.pid"; }

running() { # service
	local f
	f=$(pid_file "$1")
	[ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

start_service() {
	nohup "$CACHE/temporal-server" --config-file "$DATA/config/temporal.yaml" --tls-dir "$TLS_DIR" --service "$1" \
		>>"$DATA/log/$1.log" 2>&1 &
	echo $! >"$(pid_file "$1")"
}

# stop_pid stops a process: SIGTERM, then SIGKILL after 30 s (a Temporal
# service drains its shards and task queues first).
stop_pid() {
	local pid=$1 i
	kill "$pid" 2>/dev/null || return 0
	for i in $(seq 1 60); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.5
	done
	kill -9 "$pid" 2>/dev/null || true
}

stop_named() {
	if running "$1"; then
		log "stopping $1"
		stop_pid "$(cat "$(pid_file "$1")")"
	fi
	rm -f "$(pid_file "$1")"
}

restart() {
	local svc=${1:-}
	case $svc in history | matching | frontend | worker) ;; *) die "restart: name a service: history, matching, frontend or worker" ;; esac
	stop_named "$svc"
	log "starting $svc"
	start_service "$svc"
	wait_port "$(port_of "$svc")" "$svc"
}

wait_port() { # port name
	local i
	for i in $(seq 1 120); do
		tcp_open 127.0.0.1 "$1" && return
		sleep 0.5
	done
	die "$2 did not listen on $1: $(tail -5 "$DATA/log/$2.log")"
}

start_ui() {
	running ui && return
	tcp_open 127.0.0.1 "$UI_PORT" && die "port $UI_PORT (Web UI) is taken by another process"
	log "starting the Web UI on http://127.0.0.1:$UI_PORT"
	eval "$(print_env | grep '^export')"
	nohup "$ROOT/bin/autoscheduler-dev" temporal-ui --listen "127.0.0.1:$UI_PORT" >>"$DATA/log/ui.log" 2>&1 &
	echo $! >"$(pid_file ui)"
	wait_port "$UI_PORT" ui
}

# workers runs exactly N bin/worker processes on the cluster, Neo4j and
# Weaviate, worker-1 ... worker-N (logs in .cluster/log).
workers() {
	local n=${1:?workers: how many} i
	eval "$(print_env | grep '^export')"
	eval "$("$ROOT/scripts/services.sh" env)"
	for i in $(seq 1 "$n"); do
		running "worker-$i" && continue
		log "starting worker-$i"
		nohup "$ROOT/bin/worker" >>"$DATA/log/worker-$i.log" 2>&1 &
		echo $! >"$(pid_file "worker-$i")"
	done
	for f in "$DATA"/worker-*.pid; do
		[ -f "$f" ] || continue
		i=${f##*/worker-}
		i=${i%.pid}
		[ "$i" -gt "$n" ] && stop_named "worker-$i"
	done
	return 0
}

start_services() {
	local svc
	for svc in "${SERVICES[@]}"; do
		if running "$svc"; then continue; fi
		tcp_open 127.0.0.1 "$(port_of "$svc")" && die "port $(port_of "$svc") ($svc) is taken by another process"
		log "starting $svc on 127.0.0.1:$(port_of "$svc")"
		start_service "$svc"
		# One at a time: on a new database the first service writes the
		# cluster metadata, and services racing to do it fail.
		wait_port "$(port_of "$svc")" "$svc"
	done
}

up() {
	build
	start_postgres
	setup_schema
	write_config
	make_tls
	start_services
	"$CACHE/cluster-setup" -address "127.0.0.1:$FRONTEND_PORT" -namespace default -tls-dir "$TLS_DIR" >&2 || die "namespace setup failed"
	(cd "$ROOT" && GOTOOLCHAIN=local make -s build >&2) || die "make build failed"
	start_ui
	"$ROOT/scripts/services.sh" up >/dev/null
	workers "${CLUSTER_WORKERS:-2}"
	print_env
}

down() {
	local f svc
	for f in "$DATA"/worker-*.pid "$DATA"/ui.pid; do
		[ -f "$f" ] || continue
		svc=${f##*/}
		stop_named "${svc%.pid}"
	done
	for svc in worker frontend matching history; do
		stop_named "$svc"
	done
	if [ -n "$PGBIN" ] && [ -f "$DATA/pg/PG_VERSION" ] && as_postgres "$PGBIN/pg_ctl" -D "$DATA/pg" status >/dev/null 2>&1; then
		log "stopping PostgreSQL"
		as_postgres "$PGBIN/pg_ctl" -D "$DATA/pg" -m fast -w stop >/dev/null
	fi
}

case ${1:-} in
up) up ;;
env) print_env ;;
workers) workers "${2:-}" ;;
restart) restart "${2:-}" ;;
down) down ;;
reset) down && rm -rf "$DATA" ;;
*) die "usage: scripts/cluster.sh up|env|workers N|restart SERVICE|down|reset" ;;
esac
