#!/usr/bin/env bash
# Real Neo4j Community 5.26 (embedded, tools/neo4j-launcher) and Weaviate
# 1.39.3 for development and CI, on 127.0.0.1 only.
#
#   scripts/services.sh up [neo4j|weaviate]...   build if needed, start, wait, print env
#   scripts/services.sh down [neo4j|weaviate]... stop (SIGTERM, then SIGKILL), keep data
#   scripts/services.sh status                   what runs (exit 0 only if all are ready)
#   scripts/services.sh env                      the export lines for the CLI and tests
#
#   eval "$(scripts/services.sh up)"
#
# Binaries are built once per machine under $AUTOSCHEDULER_CACHE
# (default ~/.cache/autoscheduler), so a fresh clone reuses them:
#   bin/weaviate-server                 go install ...weaviate-server@v1.39.3 (~6-7 min cold)
#   neo4j-launcher/build-<sha>/         mvn package of a copy of tools/neo4j-launcher,
#                                       keyed by a checksum of its pom and sources
# Data, logs and PID files live in the repo's .services/ (git-ignored).
#
# Ports (env): NEO4J_BOLT_PORT (7687), WEAVIATE_PORT (8080), WEAVIATE_GRPC_PORT
# (50051), WEAVIATE_GOSSIP_PORT (7946), WEAVIATE_DATA_PORT (gossip+1),
# WEAVIATE_RAFT_PORT (8300), WEAVIATE_RAFT_RPC_PORT (raft+1).
# If a port already serves the right kind of service that this checkout did not
# start (e.g. the developer's instance while CI runs in a fresh clone), `up`
# reuses it with a warning; `down` never stops it.
#
# Progress goes to stderr; only `up` and `env` write to stdout (the env lines).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${AUTOSCHEDULER_CACHE:-$HOME/.cache/autoscheduler}
SVC=$ROOT/.services

WEAVIATE_VERSION=v1.39.3
WEAVIATE_MODULE=github.com/weaviate/weaviate
WEAVIATE_BIN=$CACHE/bin/weaviate-server
LAUNCHER_SRC=$ROOT/tools/neo4j-launcher

NEO4J_BOLT_PORT=${NEO4J_BOLT_PORT:-7687}
WEAVIATE_PORT=${WEAVIATE_PORT:-8080}
WEAVIATE_GRPC_PORT=${WEAVIATE_GRPC_PORT:-50051}
WEAVIATE_GOSSIP_PORT=${WEAVIATE_GOSSIP_PORT:-7946}
WEAVIATE_DATA_PORT=${WEAVIATE_DATA_PORT:-$((WEAVIATE_GOSSIP_PORT + 1))}
WEAVIATE_RAFT_PORT=${WEAVIATE_RAFT_PORT:-8300}
WEAVIATE_RAFT_RPC_PORT=${WEAVIATE_RAFT_RPC_PORT:-$((WEAVIATE_RAFT_PORT + 1))}

NEO4J_HEAP=${NEO4J_HEAP:-1g}
WEAVIATE_GOMEMLIMIT=${WEAVIATE_GOMEMLIMIT:-2GiB}
NEO4J_PAGECACHE_MB=${NEO4J_PAGECACHE_MB:-256}
NEO4J_START_TIMEOUT=${NEO4J_START_TIMEOUT:-180}
WEAVIATE_START_TIMEOUT=${WEAVIATE_START_TIMEOUT:-180}
STOP_TIMEOUT=${STOP_TIMEOUT:-60}

NEO4J_DIR=$SVC/neo4j
NEO4J_LOG=$NEO4J_DIR/neo4j.log
NEO4J_PID=$NEO4J_DIR/neo4j.pid
WEAVIATE_DIR=$SVC/weaviate
WEAVIATE_LOG=$WEAVIATE_DIR/weaviate.log
WEAVIATE_PID=$WEAVIATE_DIR/weaviate.pid

log() { printf 'services: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

print_env() {
	cat <<EOF
export NEO4J_URI=bolt://127.0.0.1:$NEO4J_BOLT_PORT
export NEO4J_USER=neo4j
export NEO4J_PASSWORD=
export WEAVIATE_URL=http://127.0.0.1:$WEAVIATE_PORT
export WEAVIATE_GRPC=127.0.0.1:$WEAVIATE_GRPC_PORT
EOF
}

need() {
	local cmd=$1 hint=$2
	command -v "$cmd" >/dev/null 2>&1 || die "'$cmd' not found ($hint)"
}

# ---------------------------------------------------------------- processes

# pid_of PIDFILE MARKER: prints the PID if it is alive and its command line
# contains MARKER (guards against a recycled PID), else nothing.
pid_of() {
	local file=$1 marker=$2 pid
	[[ -s $file ]] || return 0
	pid=$(tr -dc '0-9' <"$file")
	[[ -n $pid ]] || return 0
	kill -0 "$pid" 2>/dev/null || return 0
	if [[ -r /proc/$pid/cmdline ]] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$marker"; then
		return 0
	fi
	echo "$pid"
}

tcp_open() { # host port
	timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null
}

# bolt_ok PORT: a Bolt handshake (5.0-5.8 or 4.4) gets a version back.
bolt_ok() {
	local reply
	reply=$(timeout 5 bash -c '
		exec 3<>"/dev/tcp/127.0.0.1/$0" || exit 1
		printf "\x60\x60\xb0\x17\x00\x08\x08\x05\x00\x00\x04\x04\x00\x00\x00\x00\x00\x00\x00\x00" >&3
		head -c 4 <&3 | od -An -tx1
	' "$1" 2>/dev/null) || return 1
	reply=${reply//[[:space:]]/}
	[[ ${#reply} -eq 8 && $reply != 00000000 ]]
}

weaviate_ready() {
	local code
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 \
		"http://127.0.0.1:$WEAVIATE_PORT/v1/.well-known/ready" 2>/dev/null) || true
	[[ $code == 200 ]]
}

neo4j_ready() { bolt_ok "$NEO4J_BOLT_PORT"; }

# The launcher prints "NEO4J READY" once the default database has answered a
# query; Bolt may accept connections a little earlier.
neo4j_launcher_ready() {
	[[ -f $NEO4J_LOG ]] && awk '/^=== services.sh: starting neo4j/ { r = 0 } /^NEO4J READY/ { r = 1 } END { exit !r }' "$NEO4J_LOG"
}
weaviate_all_ready() { weaviate_ready && tcp_open 127.0.0.1 "$WEAVIATE_GRPC_PORT"; }

# who_listens PORT: "pid N (cmd)" of the listener, if ss can tell.
who_listens() {
	command -v ss >/dev/null 2>&1 || return 0
	ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'users:(([^)]*))' | head -1 || true
}

# stop_pids NAME:PID...: SIGTERM to all, wait up to STOP_TIMEOUT s, then SIGKILL.
stop_pids() {
	local np name pid i left
	for np in "$@"; do
		log "stopping ${np%%:*} (pid ${np#*:})"
		kill -TERM "${np#*:}" 2>/dev/null || true
	done
	for ((i = 0; i < STOP_TIMEOUT * 2; i++)); do
		left=0
		for np in "$@"; do kill -0 "${np#*:}" 2>/dev/null && left=1; done
		((left)) || break
		sleep 0.5
	done
	for np in "$@"; do
		name=${np%%:*} pid=${np#*:}
		if kill -0 "$pid" 2>/dev/null; then
			log "$name did not stop within ${STOP_TIMEOUT}s; sending SIGKILL"
			kill -KILL "$pid" 2>/dev/null || true
			for ((i = 0; i < 20; i++)); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.5
			done
			kill -0 "$pid" 2>/dev/null && die "$name (pid $pid) survived SIGKILL"
		fi
		log "$name stopped"
	done
	return 0
}

show_log() { # file
	log "last 40 lines of $1:"
	tail -n 40 "$1" >&2 2>/dev/null || true
}

# ---------------------------------------------------------------- builds

# Serialise builds per machine: several checkouts share one cache.
with_build_lock() {
	mkdir -p "$CACHE"
	exec 8>"$CACHE/.build.lock"
	flock 8
	"$@"
	exec 8>&-
}

weaviate_built_version() {
	[[ -x $WEAVIATE_BIN ]] || return 0
	if ! command -v go >/dev/null 2>&1; then # cannot tell; trust the cache
		echo "$WEAVIATE_VERSION"
		return 0
	fi
	go version -m "$WEAVIATE_BIN" 2>/dev/null | awk '$1 == "mod" && $2 == "'"$WEAVIATE_MODULE"'" { print $3 }'
}

build_weaviate() {
	local have
	have=$(weaviate_built_version)
	[[ $have == "$WEAVIATE_VERSION" ]] && return 0
	need go "install Go; GOTOOLCHAIN=local is used"
	mkdir -p "$WEAVIATE_DIR" "$CACHE/bin"
	local blog=$WEAVIATE_DIR/build.log tmp=$CACHE/bin/.tmp.$$ start=$SECONDS
	if [[ -n $have ]]; then
		log "cached weaviate-server is $have, want $WEAVIATE_VERSION: rebuilding"
	fi
	log "building weaviate-server $WEAVIATE_VERSION into $CACHE/bin (once per machine, ~6-7 min, ~2 GB RAM; log: $blog)"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# Outside the repo, so this module's go.mod plays no part. GOAMD64=v1:
	# the cached binary runs on any x86-64 (its vector distance kernels are
	# chosen at run time, with the OS's support checked by x/sys/cpu).
	if ! (cd "$CACHE" && GOBIN=$tmp GOTOOLCHAIN=local GOFLAGS=-p=2 GOWORK=off GOAMD64=v1 \
		go install "$WEAVIATE_MODULE/cmd/weaviate-server@$WEAVIATE_VERSION") >"$blog" 2>&1; then
		rm -rf "$tmp"
		show_log "$blog"
		die "weaviate-server build failed"
	fi
	mv -f "$tmp/weaviate-server" "$WEAVIATE_BIN"
	rm -rf "$tmp"
	log "built weaviate-server $WEAVIATE_VERSION in $((SECONDS - start))s"
}

launcher_sum() {
	(cd "$LAUNCHER_SRC" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
}

# Sets LAUNCHER_CP to the classpath of a build of the current sources.
build_launcher() {
	[[ -f $LAUNCHER_SRC/pom.xml ]] || die "$LAUNCHER_SRC/pom.xml missing"
	local sum dir
	sum=$(launcher_sum)
	dir=$CACHE/neo4j-launcher/build-$sum
	LAUNCHER_CP="$dir/target/classes:$dir/target/lib/*"
	if [[ -f $dir/source.sha256 && $(cat "$dir/source.sha256") == "$sum" &&
		-f $dir/target/classes/autoscheduler/Neo4jLauncher.class ]] &&
		compgen -G "$dir/target/lib/neo4j-kernel-*.jar" >/dev/null; then
		return 0
	fi
	need java "e.g. apt-get install openjdk-17-jdk-headless"
	need mvn "e.g. apt-get install maven"
	mkdir -p "$NEO4J_DIR"
	local blog=$NEO4J_DIR/build.log start=$SECONDS
	log "building tools/neo4j-launcher ($sum) into $dir (log: $blog)"
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -R "$LAUNCHER_SRC/pom.xml" "$LAUNCHER_SRC/src" "$dir/"
	if ! (cd "$dir" && mvn -q -B package) >"$blog" 2>&1; then
		show_log "$blog"
		rm -rf "$dir"
		die "neo4j-launcher build failed"
	fi
	echo "$sum" >"$dir/source.sha256"
	log "built neo4j-launcher in $((SECONDS - start))s"
	# Drop builds of older sources that no running process uses.
	local old
	for old in "$CACHE"/neo4j-launcher/build-*; do
		[[ -d $old && $old != "$dir" ]] || continue
		if ! grep -qsF -- "$old/" /proc/[0-9]*/cmdline 2>/dev/null; then
			rm -rf "$old"
		fi
	done
}

# ---------------------------------------------------------------- neo4j

NEO4J_MARKER=autoscheduler.Neo4jLauncher

# Returns 0 when already up (ours or reusable foreign), 1 when a start is needed.
neo4j_check_existing() {
	local pid
	pid=$(pid_of "$NEO4J_PID" "$NEO4J_MARKER")
	if [[ -n $pid ]]; then
		if neo4j_ready; then
			log "neo4j already running (pid $pid) on bolt://127.0.0.1:$NEO4J_BOLT_PORT"
		else
			log "neo4j (pid $pid) is running but not answering yet; waiting"
			wait_neo4j "$pid"
		fi
		return 0
	fi
	rm -f "$NEO4J_PID"
	if tcp_open 127.0.0.1 "$NEO4J_BOLT_PORT"; then
		if neo4j_ready; then
			log "warning: bolt://127.0.0.1:$NEO4J_BOLT_PORT is served by a process this checkout did not start $(who_listens "$NEO4J_BOLT_PORT"); using it (set NEO4J_BOLT_PORT for a separate instance)"
			return 0
		fi
		die "port $NEO4J_BOLT_PORT is in use by something that does not speak Bolt $(who_listens "$NEO4J_BOLT_PORT"); set NEO4J_BOLT_PORT"
	fi
	return 1
}

start_neo4j() {
	mkdir -p "$NEO4J_DIR/data"
	{
		echo
		echo "=== services.sh: starting neo4j at $(date -u +%FT%TZ) on 127.0.0.1:$NEO4J_BOLT_PORT ==="
	} >>"$NEO4J_LOG"
	log "starting neo4j on bolt://127.0.0.1:$NEO4J_BOLT_PORT (log: $NEO4J_LOG)"
	# setsid: own session, so it outlives this script, make and CI's process group.
	(
		cd "$NEO4J_DIR"
		exec 8>&- 9>&- # the services must not hold this script's locks
		exec setsid nohup java \
			-Xms256m "-Xmx$NEO4J_HEAP" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
			-Dfile.encoding=UTF-8 \
			--add-opens=java.base/java.nio=ALL-UNNAMED \
			--add-opens=java.base/java.io=ALL-UNNAMED \
			--add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
			--add-opens=java.base/java.lang=ALL-UNNAMED \
			-cp "$LAUNCHER_CP" "$NEO4J_MARKER" \
			--home "$NEO4J_DIR/data" --bolt-port "$NEO4J_BOLT_PORT" \
			--pagecache-mb "$NEO4J_PAGECACHE_MB"
	) </dev/null >>"$NEO4J_LOG" 2>&1 &
	echo $! >"$NEO4J_PID"
}

wait_neo4j() {
	local pid=$1 deadline=$((SECONDS + NEO4J_START_TIMEOUT))
	while ! { neo4j_launcher_ready && neo4j_ready; }; do
		if ! kill -0 "$pid" 2>/dev/null; then
			rm -f "$NEO4J_PID"
			show_log "$NEO4J_LOG"
			die "neo4j exited during startup (see also $NEO4J_DIR/data/logs/debug.log)"
		fi
		if ((SECONDS >= deadline)); then
			show_log "$NEO4J_LOG"
			die "neo4j not ready on 127.0.0.1:$NEO4J_BOLT_PORT after ${NEO4J_START_TIMEOUT}s (pid $pid still running; see also $NEO4J_DIR/data/logs/debug.log)"
		fi
		sleep 1
	done
	log "neo4j ready on bolt://127.0.0.1:$NEO4J_BOLT_PORT (pid $pid)"
}

# ---------------------------------------------------------------- weaviate

weaviate_check_existing() {
	local pid
	pid=$(pid_of "$WEAVIATE_PID" weaviate-server)
	if [[ -n $pid ]]; then
		if weaviate_all_ready; then
			log "weaviate already running (pid $pid) on http://127.0.0.1:$WEAVIATE_PORT"
		else
			log "weaviate (pid $pid) is running but not ready yet; waiting"
			wait_weaviate "$pid"
		fi
		return 0
	fi
	rm -f "$WEAVIATE_PID"
	if tcp_open 127.0.0.1 "$WEAVIATE_PORT"; then
		if weaviate_all_ready; then
			log "warning: http://127.0.0.1:$WEAVIATE_PORT is served by a Weaviate this checkout did not start $(who_listens "$WEAVIATE_PORT"); using it (set WEAVIATE_PORT, WEAVIATE_GRPC_PORT and the cluster ports for a separate instance)"
			return 0
		fi
		die "port $WEAVIATE_PORT is in use by something that is not a ready Weaviate $(who_listens "$WEAVIATE_PORT"); set WEAVIATE_PORT"
	fi
	return 1
}

start_weaviate() {
	mkdir -p "$WEAVIATE_DIR/data"
	{
		echo
		echo "=== services.sh: starting weaviate at $(date -u +%FT%TZ) on 127.0.0.1:$WEAVIATE_PORT (grpc $WEAVIATE_GRPC_PORT) ==="
	} >>"$WEAVIATE_LOG"
	log "starting weaviate on http://127.0.0.1:$WEAVIATE_PORT, grpc 127.0.0.1:$WEAVIATE_GRPC_PORT (log: $WEAVIATE_LOG)"
	(
		cd "$WEAVIATE_DIR"
		exec 8>&- 9>&- # the services must not hold this script's locks
		# A clean environment apart from PATH/HOME/TMPDIR: none of the
		# caller's settings (GOGC, stray Weaviate variables) leak in. The
		# gRPC (GRPC_PORT) and cluster-data (CLUSTER_DATA_BIND_PORT)
		# listeners bind all interfaces in 1.39.3: Weaviate has no setting
		# for their address; everything else is on 127.0.0.1.
		exec env -i PATH="$PATH" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" \
			PERSISTENCE_DATA_PATH="$WEAVIATE_DIR/data" \
			AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true \
			DEFAULT_VECTORIZER_MODULE=none \
			API_BASED_MODULES_DISABLED=true \
			ENABLE_MODULES= \
			QUERY_DEFAULTS_LIMIT=25 \
			DISABLE_TELEMETRY=true \
			GO_PROFILING_DISABLE=true \
			PROMETHEUS_MONITORING_ENABLED=false \
			MCP_SERVER_ENABLED=false \
			GOMEMLIMIT="$WEAVIATE_GOMEMLIMIT" \
			LOG_FORMAT=text \
			LOG_LEVEL=info \
			GRPC_PORT="$WEAVIATE_GRPC_PORT" \
			CLUSTER_HOSTNAME=node1 \
			CLUSTER_IN_LOCALHOST=true \
			CLUSTER_BIND_ADDR=127.0.0.1 \
			CLUSTER_GOSSIP_BIND_PORT="$WEAVIATE_GOSSIP_PORT" \
			CLUSTER_DATA_BIND_PORT="$WEAVIATE_DATA_PORT" \
			RAFT_PORT="$WEAVIATE_RAFT_PORT" \
			RAFT_INTERNAL_RPC_PORT="$WEAVIATE_RAFT_RPC_PORT" \
			RAFT_JOIN="node1:$WEAVIATE_RAFT_RPC_PORT" \
			RAFT_BOOTSTRAP_EXPECT=1 \
			setsid nohup "$WEAVIATE_BIN" --host 127.0.0.1 --port "$WEAVIATE_PORT" --scheme http
	) </dev/null >>"$WEAVIATE_LOG" 2>&1 &
	echo $! >"$WEAVIATE_PID"
}

wait_weaviate() {
	local pid=$1 deadline=$((SECONDS + WEAVIATE_START_TIMEOUT))
	while ! weaviate_all_ready; do
		if ! kill -0 "$pid" 2>/dev/null; then
			rm -f "$WEAVIATE_PID"
			show_log "$WEAVIATE_LOG"
			die "weaviate exited during startup"
		fi
		if ((SECONDS >= deadline)); then
			show_log "$WEAVIATE_LOG"
			die "weaviate not ready on 127.0.0.1:$WEAVIATE_PORT (grpc $WEAVIATE_GRPC_PORT) after ${WEAVIATE_START_TIMEOUT}s (pid $pid still running)"
		fi
		sleep 1
	done
	log "weaviate ready on http://127.0.0.1:$WEAVIATE_PORT, grpc 127.0.0.1:$WEAVIATE_GRPC_PORT (pid $pid)"
}

# ---------------------------------------------------------------- commands

want() { # name: is the service selected?
	local s
	((${#SELECTED[@]} == 0)) && return 0
	for s in "${SELECTED[@]}"; do [[ $s == "$1" ]] && return 0; done
	return 1
}

cmd_up() {
	need curl "apt-get install curl"
	need flock "apt-get install util-linux"
	mkdir -p "$SVC"
	# One up/down at a time per checkout.
	exec 9>"$SVC/.lock"
	flock 9

	local start_n=0 start_w=0
	if want neo4j && ! neo4j_check_existing; then start_n=1; fi
	if want weaviate && ! weaviate_check_existing; then start_w=1; fi

	# Builds first (they may take minutes), then start both, then wait.
	if ((start_w)); then with_build_lock build_weaviate; fi
	if ((start_n)); then with_build_lock build_launcher; fi
	if ((start_n)); then start_neo4j; fi
	if ((start_w)); then start_weaviate; fi
	if ((start_w)); then wait_weaviate "$(cat "$WEAVIATE_PID")"; fi
	if ((start_n)); then wait_neo4j "$(cat "$NEO4J_PID")"; fi

	print_env
}

cmd_down() {
	mkdir -p "$SVC"
	exec 9>"$SVC/.lock"
	flock 9
	local pid stop=()
	if want weaviate; then
		pid=$(pid_of "$WEAVIATE_PID" weaviate-server)
		if [[ -n $pid ]]; then stop+=("weaviate:$pid"); else log "weaviate not running (from this checkout)"; fi
	fi
	if want neo4j; then
		pid=$(pid_of "$NEO4J_PID" "$NEO4J_MARKER")
		if [[ -n $pid ]]; then stop+=("neo4j:$pid"); else log "neo4j not running (from this checkout)"; fi
	fi
	if ((${#stop[@]})); then stop_pids "${stop[@]}"; fi
	if want weaviate; then rm -f "$WEAVIATE_PID"; fi
	if want neo4j; then rm -f "$NEO4J_PID"; fi
}

cmd_status() {
	local pid ok=0
	pid=$(pid_of "$NEO4J_PID" "$NEO4J_MARKER")
	if [[ -n $pid ]]; then
		if neo4j_ready; then
			echo "neo4j:    running, pid $pid, bolt://127.0.0.1:$NEO4J_BOLT_PORT ready, data $NEO4J_DIR/data"
		else
			echo "neo4j:    running, pid $pid, bolt://127.0.0.1:$NEO4J_BOLT_PORT NOT answering"; ok=1
		fi
	elif neo4j_ready; then
		echo "neo4j:    not started here, but bolt://127.0.0.1:$NEO4J_BOLT_PORT answers $(who_listens "$NEO4J_BOLT_PORT")"
	else
		echo "neo4j:    stopped"; ok=1
	fi
	pid=$(pid_of "$WEAVIATE_PID" weaviate-server)
	if [[ -n $pid ]]; then
		if weaviate_all_ready; then
			echo "weaviate: running, pid $pid, http://127.0.0.1:$WEAVIATE_PORT ready, grpc 127.0.0.1:$WEAVIATE_GRPC_PORT, data $WEAVIATE_DIR/data"
		else
			echo "weaviate: running, pid $pid, http://127.0.0.1:$WEAVIATE_PORT NOT ready"; ok=1
		fi
	elif weaviate_all_ready; then
		echo "weaviate: not started here, but http://127.0.0.1:$WEAVIATE_PORT is ready $(who_listens "$WEAVIATE_PORT")"
	else
		echo "weaviate: stopped"; ok=1
	fi
	local have
	have=$(weaviate_built_version)
	echo "cache:    $CACHE (weaviate-server ${have:-not built}; neo4j-launcher $(
		ls -d "$CACHE"/neo4j-launcher/build-* 2>/dev/null | sed 's|.*/build-||' | tr '\n' ' ' || true))"
	return "$ok"
}

usage() {
	sed -n '2,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

main() {
	(($# >= 1)) || usage
	local cmd=$1
	shift
	SELECTED=()
	local s
	for s in "$@"; do
		case $s in
		neo4j | weaviate) SELECTED+=("$s") ;;
		*) die "unknown service '$s' (neo4j or weaviate)" ;;
		esac
	done
	case $cmd in
	up) cmd_up ;;
	down) cmd_down ;;
	status) cmd_status ;;
	env) print_env ;;
	-h | --help | help) usage ;;
	*) usage ;;
	esac
}

main "$@"
