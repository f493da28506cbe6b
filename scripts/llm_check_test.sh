#!/usr/bin/env bash
# Tests of scripts/llm.sh's start-up check (make test runs it): a server that
# dies is reported with its cause (the signal, or the status), never only as
# "exited during startup". Fake servers stand in for llama-server; nothing is
# built or downloaded.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# case NAME SCRIPT WANT: llm.sh up with SCRIPT as the server must fail and
# print WANT (a fixed string).
case_() {
	local name=$1 body=$2 want=$3 out rc=0
	printf '#!/usr/bin/env bash\n%s\n' "$body" >"$tmp/$name"
	chmod +x "$tmp/$name"
	out=$(LLAMA_SERVER_BIN=$tmp/$name LLAMA_MODEL_PATH=$tmp/model.gguf LLAMA_DIR=$tmp/dir-$name \
		LLAMA_PORT=18971 LLAMA_START_TIMEOUT=10 AUTOSCHEDULER_CACHE=$tmp/cache \
		"$ROOT/scripts/llm.sh" up 2>&1) || rc=$?
	if ((rc == 0)); then
		echo "FAIL $name: llm.sh up succeeded with a dead server"
		fail=1
	elif [[ $out != *"$want"* ]]; then
		printf 'FAIL %s: want %q in:\n%s\n' "$name" "$want" "$out"
		fail=1
	else
		echo "ok   $name"
	fi
}

touch "$tmp/model.gguf"
case_ sigill 'echo "loading model"; kill -ILL $$' 'was killed by SIGILL (illegal instruction)'
case_ sigsegv 'kill -SEGV $$' 'was killed by SIGSEGV during startup'
case_ status 'echo "error: cannot open model" >&2; exit 3' 'exited with status 3 during startup'
case_ logtail 'echo "error: cannot open model" >&2; exit 3' 'error: cannot open model'
# Healthy until asked to compute, as a server whose matrix kernels fault.
case_ first-completion 'exec python3 -c "
import http.server, os, signal, sys
port = int(sys.argv[sys.argv.index(\"--port\") + 1])
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b\"{}\")
    def do_POST(self):
        os.kill(os.getpid(), signal.SIGILL)
    def log_message(self, *a):
        pass
http.server.HTTPServer((\"127.0.0.1\", port), H).serve_forever()
" "$@"' 'was killed by SIGILL (illegal instruction)'
case_ bad-reply 'exec python3 -c "
import http.server, sys
port = int(sys.argv[sys.argv.index(\"--port\") + 1])
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b\"{}\")
    def do_POST(self):
        self.send_response(500); self.end_headers(); self.wfile.write(b\"no\")
    def log_message(self, *a):
        pass
http.server.HTTPServer((\"127.0.0.1\", port), H).serve_forever()
" "$@"' 'does not complete a chat request (HTTP 500'
if ss -Hltn 'sport = :18971' 2>/dev/null | grep -q .; then
	echo "FAIL: a refused server still listens on 18971"
	fail=1
fi
exit $fail
