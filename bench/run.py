#!/usr/bin/env python3
"""make bench: Go CPM benchmarks and the NetworkX peer on the same schedule.

Runs the Go benchmarks (10k, 100k, 1M activities, one core), writes the same
100k-activity schedule to a file, times the whole `autoscheduler schedule
--format json` command and the seed design's NetworkX approach
(bench/networkx_cpm.py) on it in this same run, and writes BENCHMARKS.md.

The live programme (issue 28): a progressed 100k-activity programme on three
calendars (gensched -live) through the whole command against the NetworkX
peer of the live engine (bench/networkx_live.py), and a 10k-activity P6 XER
(bench/live_xer.py) against MPXJ's PrimaveraScheduler (bench/mpxj_p6.py;
mpxj and JPype1 from bench/requirements.txt, Java 17). `python3 bench/run.py
live` runs only those two sections and rewrites them in place.

The round trip (issue 29): a 50,000-activity P6 file with resources imported,
exported unchanged and after a change set, against MPXJ reading and writing it
(bench/mpxj_roundtrip.py); compare (issue 30): `compare A B` on two 100k
versions. `python3 bench/run.py roundtrip` (or `compare`, or `stores`) runs one of them.
"""

import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
ENV = dict(os.environ, GOTOOLCHAIN="local")


def sh(*args, **kw):
    return subprocess.run(args, cwd=ROOT, env=ENV, check=True, text=True, **kw)


def timed(args, stdout_path=os.devnull):
    """Wall time and peak RSS (MiB) of one whole command, from exec to exit."""
    with open(stdout_path, "w") as out, open(os.devnull, "w") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=ROOT, env=ENV, stdout=out, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        stderr = proc.stderr.read()
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{args[0]} failed: {stderr}")
    return wall, usage.ru_maxrss / 1024, stderr


def cpu_model():
    """The CPU's model name, or "unknown"."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        return "unknown"


def go_benchmarks():
    res = sh("go", "test", "-run", "^$", "-bench", ".", "-benchmem", "-cpu", "1", "-count", "1",
             "./internal/schedule/", capture_output=True)
    rows = []
    pat = re.compile(r"^Benchmark(\w+)/activities=(\d+)/relationships=(\d+)\s+(\d+)\s+(\d+) ns/op\s+([\d.]+) B/item\s+(\d+) B/op\s+(\d+) allocs/op")
    for line in res.stdout.splitlines():
        m = pat.match(line)
        if m:
            name, acts, rels, _, ns, per_item, bop, allocs = m.groups()
            rows.append({"bench": name, "activities": int(acts), "relationships": int(rels),
                         "seconds": int(ns) / 1e9, "b_per_item": float(per_item),
                         "mb": int(bop) / 2**20, "allocs": int(allocs)})
    if not rows:
        sys.exit("no benchmark results:\n" + res.stdout + res.stderr)
    return rows


def store_section():
    """Import and search benchmarks of the stores (bench/storebench)."""
    print("store benchmarks ...", file=sys.stderr)
    binary = os.path.join(OUT, "storebench")
    sh("go", "build", "-o", binary, "./bench/storebench")
    rows = json.loads(sh(binary, "-dir", OUT, capture_output=True).stdout)
    by = {(r["store"], r["measure"], r["way"]): r for r in rows}
    lines = [
        "## Stores: import and search",
        "",
        "`bench/storebench`, same run. Import: a generated schedule of 5,000 activities "
        f"({by[('embedded', 'import', 'batched')]['items']:,} activities + relationships) written the way "
        "`autoscheduler import` does it (one graph transaction of batched writes, embeddings in batches, one vector "
        "batch) beside the naive way (one graph write, one embedding call and one vector write per activity or "
        "relationship). Search: p50/p95 of `Coordinator.Search` (query embedding + hybrid search, k = 10) over "
        "200 planner queries in a 10,000-activity schedule.",
        "",
        "| store | measure | ours | naive | ratio | target |",
        "|---|---|---:|---:|---:|---|",
    ]
    def imp(store, target):
        b, n = by.get((store, "import", "batched")), by.get((store, "import", "naive"))
        if b and n:
            ok = "met" if b["seconds"] <= target else "MISSED"
            lines.append(f"| {store} | import 5,000 activities | {b['seconds']:.2f} s | {n['seconds']:.2f} s | "
                         f"{n['seconds'] / b['seconds']:.0f}x | <= {target} s: {ok} |")
    imp("embedded", 3)
    imp("neo4j+weaviate", 20)
    b, n = by[("embedded", "search", "batched")], by[("embedded", "search", "naive")]
    ok = "met" if b["p95_ms"] <= 15 else "MISSED"
    lines.append(f"| embedded | search p50 / p95 at 10,000 activities | {b['p50_ms']:.1f} / {b['p95_ms']:.1f} ms | "
                 f"{n['p50_ms']:.1f} / {n['p95_ms']:.1f} ms | {n['p95_ms'] / b['p95_ms']:.0f}x (p95) | p95 <= 15 ms: {ok} |")
    w = by.get(("weaviate", "search", "batched"))
    if w:
        lines.append(f"| weaviate | search p50 / p95 at 10,000 activities | {w['p50_ms']:.1f} / {w['p95_ms']:.1f} ms | | | |")
    if ("neo4j+weaviate", "import", "batched") not in by:
        lines.append("")
        lines.append("Neo4j + Weaviate rows are missing: run `eval \"$(make -s services)\"` before `make bench`.")
    lines += ["", "The naive search reads every vector from the SQLite file on each query; ours keeps them in memory.", ""]
    return lines


def dispatch_section():
    """Dispatch overhead on the in-process Temporal dev server (bench/dispatchbench)."""
    print("dispatch benchmark ...", file=sys.stderr)
    binary = os.path.join(OUT, "dispatchbench")
    sh("go", "build", "-o", binary, "./bench/dispatchbench")
    r = json.loads(sh(binary, "-n", "50", capture_output=True).stdout.strip().splitlines()[-1])
    ok = lambda v, t: "met" if v <= t else "MISSED"
    return [
        "## Dispatch overhead",
        "",
        f"`bench/dispatchbench`: {r['dispatches']} dispatches in a row on the in-process Temporal dev server (SQLite), "
        "offline planner, embedded store, examples/building.json; each proposes one change and is accepted.",
        "",
        "| measure | p50 | p95 | target (p50) |",
        "|---|---:|---:|---|",
        f"| submit -> proposal awaiting review | {r['to_review_p50_s'] * 1000:.0f} ms | {r['to_review_p95_s'] * 1000:.0f} ms | <= 1.5 s: {ok(r['to_review_p50_s'], 1.5)} |",
        f"| accept -> committed (result returned) | {r['accept_to_done_p50_s'] * 1000:.0f} ms | {r['accept_to_done_p95_s'] * 1000:.0f} ms | <= 0.5 s: {ok(r['accept_to_done_p50_s'], 0.5)} |",
        "",
    ]


def llm_section():
    """LLM calls and prompt tokens per dispatch (internal/scope TestTokenBudget)."""
    print("llm token benchmark ...", file=sys.stderr)
    out = os.path.join(OUT, "llm.json")
    subprocess.run(["go", "test", "-count=1", "-run", "^TestTokenBudget$", "./internal/scope/"], cwd=ROOT,
                   env=dict(ENV, LLMBENCH_OUT=out), check=True, text=True, capture_output=True)
    with open(out) as f:
        rows = json.load(f)
    lines = [
        "## LLM calls and prompt tokens per dispatch",
        "",
        "`internal/scope` TestTokenBudget, same run: one round of each of the seed design's four example prompts on "
        "examples/building.json through the LLM scope manager, against a scripted OpenAI-compatible model "
        "(`internal/scope/scopetest`), and through the naive baseline on the same model: no read-scope toolkit, "
        "every request searched and decided one candidate per call, candidates as plain JSON with ids and "
        "descriptions. Tokens are counted by the scripted server for both the same way (request bytes / 4), so the "
        "ratio holds for real tokenizers to within their per-token variance; the absolute numbers are estimates.",
        "",
        "The \"same batches, JSON\" column is the scope manager with its candidate tables replaced by plain JSON: "
        "the share of the saving that the compact tables with short aliases make on their own.",
        "",
        "| prompt | calls | max calls (4 + ceil(candidates/40)) | prompt tokens | same batches, JSON | baseline calls | baseline prompt tokens | tokens vs baseline |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ratio = r["PromptTokens"] / r["NaiveTokens"]
        lines.append(f"| {r['prompt']} | {r['Calls']} | {r['MaxCalls']} ({r['Candidates']} candidates) | {r['PromptTokens']:,} | {r['JSONTokens']:,} | "
                     f"{r['NaiveCalls']} | {r['NaiveTokens']:,} | **{ratio:.0%}** |")
    tot, ntot = sum(r["PromptTokens"] for r in rows), sum(r["NaiveTokens"] for r in rows)
    ok = all(r["Calls"] <= r["MaxCalls"] for r in rows) and all(2 * r["PromptTokens"] <= r["NaiveTokens"] for r in rows)
    lines += [
        "",
        f"Targets: <= 50% of the baseline's prompt tokens and at most 4 + ceil(candidates/40) calls per dispatch: "
        f"{'met' if ok else 'MISSED'} for every prompt ({tot:,} vs {ntot:,} tokens in all, {tot / ntot:.0%}).",
        "",
    ]
    return lines


CORPUS_HEADER = "## Offline planner: the labelled prompt corpus"


def corpus_section():
    """Correct / asked-or-refused / wrong on internal/scope/testdata/prompts.json, and whole-command plan times."""
    print("prompt corpus ...", file=sys.stderr)
    table = os.path.join(OUT, "corpus.md")
    subprocess.run(["go", "test", "-count=1", "-run", "^TestPromptCorpus$", "./internal/scope/"], cwd=ROOT,
                   env=dict(ENV, AUTOSCHEDULER_CORPUS_TABLE=table), check=True, text=True, capture_output=True)
    with open(table) as f:
        rows = f.read().strip()
    binary = os.path.join(ROOT, "bin", "autoscheduler")
    prompts = ["get rid of the 2nd floor drywall", "add a 3 day scaffold inspection after the level 1 slab pour",
               "painting on level 4 should follow painting on level 2 rather than level 3",
               "delete A039, dissolve A060 and link A061 to A086 FS"]
    times = []
    for p in prompts:
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([binary, "plan", p, "--file", os.path.join(ROOT, "examples", "building.json"), "--format", "json"],
                           cwd=ROOT, env=dict(ENV, OPENAI_API_KEY="", OPENAI_BASE_URL=""), check=True, capture_output=True)
            runs.append(time.perf_counter() - t0)
        times.append((p, sorted(runs)[len(runs) // 2]))
    lines = [
        CORPUS_HEADER,
        "",
        "`internal/scope` TestPromptCorpus (run by `make test`), same run: every prompt of "
        "`internal/scope/testdata/prompts.json`, written from examples/building.json and from the MSPDI file "
        "`../shared/data/mspdi/mspdirelations.xml`, through the offline rules planner as a dispatch round runs it "
        "(the person's answers to its questions in order, and for feedback cases the round after a rejection "
        "with feedback). Correct: exactly the expected ops (any order), or the expected question or refusal. "
        "Asked or refused instead: no ops where ops were expected (safe, not correct). Wrong: ops that are not "
        "the expected ones; the test fails on any.",
        "",
        rows,
        "",
        "Honesty note: the corpus was written in nine batches, each run for the first time only after the one "
        "before it passed. Batch 1 (212 prompts) was written, then the parser fixed until it passed. Batch 2 (76) "
        "scored on its first run 84% correct, 11% asked or refused instead and 4 wrong — 2 real (a name given "
        "with \"called\" re-ordered; a new activity's name typo-corrected into another word after a deletion in "
        "the same request took its word out of the vocabulary), 2 mislabelled. Batch 3 (56) scored 79% correct, "
        "14% asked or refused instead and 4 wrong — 3 real (hyphens dropped from two new names; a re-sequencing "
        "whose new link closed a loop removed the old link and dropped the new one, now refused whole), 1 "
        "mislabelled. Batch 4 (39, list markers, greetings, capitals, units in hours and weeks) scored 82% correct, "
        "15% asked or refused instead and 1 wrong (feedback \"call it X\" was not understood, so the same proposal "
        "came back with a note; now it renames the new activity). Batch 5 (38) scored 84% correct, 11% asked or "
        "refused instead and 2 wrong (a new name lost a word that typo correction had turned into a filler; "
        "feedback \"no, level 3\" was not understood, now it means the same activities on level 3). Batch 6 (38) scored 79% correct, 13% asked or "
        "refused instead and 3 wrong (\"the testing and commissioning\" taken as the one activity whose name "
        "contains it, now asked about; \"X should follow Y\" added an FS link beside an existing SS one, now a "
        "note; a re-sequencing whose new link existed asked a question instead of saying so). Batch 7 (41) scored "
        "80% correct, 20% asked or refused instead and 0 wrong. Batch 8 (32, deliberately odd phrasings: "
        "\"make X a predecessor of Y\", \"X drives Y\", \"X: 4 days\", \"tasks 2 and 3\", feedback openers "
        "like \"too much, just …\") scored 59% correct, 28% asked or refused instead and 4 wrong (feedback "
        "read as not understood and the same proposal made again, where it meant a narrowing, \"no lag\" or "
        "\"I meant A041\"; a colon kept in a new name). Batch 9 (28 answers and feedback rounds) scored 82% "
        "correct, 4% asked instead and 4 wrong (an answer about one part of a list stood for the whole list; "
        "\"do level 3 instead\", \"make the lag 3 days\" and \"and Hoarding removal\" misread). All are fixed and in the table above. "
        "Expect a new set of the same kind to land nearer the first-run figure than the table's.",
        "",
        "Whole command, no server: `bin/autoscheduler plan PROMPT --file examples/building.json --format json` "
        "(read the file, parse, resolve, plan, CPM impact, print), median of 5:",
        "",
        "| prompt | time |",
        "|---|---:|",
    ]
    for p, t in times:
        lines.append(f"| {p} | {t * 1000:.0f} ms |")
    lines.append("")
    lines += long_prompt_lines(binary)
    return lines


def long_prompt_lines(binary):
    """Long prompts: planning stays near linear in the prompt (issue 26: it was cubic)."""
    print("long prompts ...", file=sys.stderr)
    res = sh("go", "test", "-run", "^$", "-bench", "^(BenchmarkPlan|BenchmarkPlan10KB|BenchmarkPlanIDList)$", "-benchtime", "3x",
             "./internal/scope/", capture_output=True)
    rows = []
    for line in res.stdout.splitlines():
        m = re.match(r"^Benchmark(Plan\S*?)(?:-\d+)?\s+\d+\s+(\d+) ns/op", line)
        if m:
            rows.append((m.group(1), int(m.group(2)) / 1e6))
    ids = ", ".join(f"A{n:03d}" for n in range(10, 110))
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([binary, "plan", "delete " + ids, "--file", os.path.join(ROOT, "examples", "building.json"), "--format", "json"],
                       cwd=ROOT, env=dict(ENV, OPENAI_API_KEY="", OPENAI_BASE_URL=""), check=True, capture_output=True)
        runs.append(time.perf_counter() - t0)
    lines = [
        "Long prompts (`internal/scope` BenchmarkPlan, BenchmarkPlan10KB, BenchmarkPlanIDList: generated prompts on "
        "examples/building.json through the rules planner, mean of 3; target: 10 KB in under 1 s; a prompt is at most "
        "16 KB). Before issue 26 a one-request list of names took 0.9 s at 0.5 KB, 60 s at 2 KB and over 5 minutes "
        "at 10 KB, and \"delete A010, A011, …\" with 100 ids 8.9 s:",
        "",
        "| benchmark | time |",
        "|---|---:|",
    ]
    for name, ms in rows:
        lines.append(f"| {name} | {ms:.1f} ms |")
    lines.append(f"| whole command: `plan \"delete A010, …, A109\"` (100 ids), median of 3 | {sorted(runs)[1] * 1000:.0f} ms |")
    lines.append("")
    return lines


LIVE_HEADER = "## Live programme: progress, constraints and three calendars"
MPXJ_HEADER = "## Against MPXJ's PrimaveraScheduler: read and schedule a P6 XER"


def timed_cpu(args, stdout_path=os.devnull):
    """Wall time, CPU time (user + system, children included) and stderr of one whole command."""
    with open(stdout_path, "w") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=ROOT, env=ENV, stdout=out, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        stderr = proc.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{args[0]} failed: {stderr}")
    return wall, usage.ru_utime + usage.ru_stime, stderr


def _median_runs(args, out, runs, label=""):
    """Median wall and CPU time of runs whole commands, and each run's stderr."""
    walls, cpus, errs = [], [], []
    for i in range(runs):
        if label:
            print(f"  {label} run {i + 1}/{runs} ...", file=sys.stderr)
        wall, cpu, err = timed_cpu(args, out)
        walls.append(wall)
        cpus.append(cpu)
        errs.append(err)
    return statistics.median(walls), statistics.median(cpus), errs


def _dates_agree(ours, peer, keys):
    """How many activities have the same value in every key (dates to the minute)."""
    theirs = {a["id"]: a for a in peer["activities"]}
    same = 0
    for a in ours["activities"]:
        b = theirs.get(a["id"])
        if b is not None and all(str(a[k])[:16] == str(b[k])[:16] for k in keys):
            same += 1
    return same


def live_sections(binary):
    """Issue 28's benchmarks: the live engine's whole command against a NetworkX peer (100k activities) and
    against MPXJ's PrimaveraScheduler (10k-activity XER)."""
    gensched = os.path.join(OUT, "gensched")
    sh("go", "build", "-o", gensched, "./bench/gensched")
    runs_ours, runs_peer = RUNS, int(os.environ.get("BENCH_PEER_RUNS", "3"))
    keys = ["early_start_date", "early_finish_date", "late_start_date", "late_finish_date"]

    # A. 100k activities, NetworkX peer.
    load = os.getloadavg()
    print("live programme 100k ...", file=sys.stderr)
    sched = os.path.join(OUT, "live-100k.json")
    sh(gensched, "-live", "-n", "100000", "-links", "2", "-seed", "1", "-o", sched)
    with open(sched) as f:
        doc = json.load(f)
    acts = doc["activities"]
    n_act, n_rel = len(acts), len(doc["relationships"])
    n_done = sum(1 for a in acts if a.get("actual_finish"))
    n_prog = sum(1 for a in acts if a.get("actual_start") and not a.get("actual_finish"))
    n_cons = sum(1 for a in acts if a.get("constraint"))
    by_cal = {c: sum(1 for a in acts if a.get("calendar", "") == c) for c in ["", "6d", "7d"]}
    go_out, nx_out = os.path.join(OUT, "live-go-report.json"), os.path.join(OUT, "live-nx-report.json")
    ours, ours_cpu, _ = _median_runs([binary, "schedule", "--file", sched, "--format", "json"], go_out, runs_ours)
    peer, peer_cpu, errs = _median_runs([sys.executable, "bench/networkx_live.py", sched, "--out", nx_out], os.devnull,
                                        runs_peer, "networkx_live")
    phases = [json.loads(e.strip().splitlines()[-1]) for e in errs]
    with open(go_out) as f:
        go_rep = json.load(f)
    with open(nx_out) as f:
        nx_rep = json.load(f)
    go_fin = max(a["early_finish_date"] for a in go_rep["activities"])
    nx_fin = nx_rep["project_finish"]
    same = _dates_agree(go_rep, nx_rep, keys)
    floats_same = sum(1 for a, b in zip(go_rep["activities"], nx_rep["activities"])
                      if abs(a["total_float"] - b["total_float"]) < 1e-6 and abs(a["free_float"] - b["free_float"]) < 1e-6)
    ph = {k: statistics.median(p[k] for p in phases) for k in phases[0]}
    ratio = peer / ours
    lines = [
        LIVE_HEADER,
        "",
        f"Same file, same run: `bench/out/live-100k.json` (`gensched -live -n 100000 -links 2 -seed 1`, "
        f"{os.path.getsize(sched) / 2**20:.1f} MiB): {n_act:,} activities and {n_rel:,} relationships (FS, SS, FF, SF; "
        f"lags 0-3 days, some half days) in levels of 1,000; data date {doc['data_date']}; {n_done:,} activities "
        f"complete (actual start and finish), {n_prog:,} in progress (actual start, remaining duration), {n_cons:,} with a "
        f"start-on-or-after or finish-on-or-before constraint; calendars: {by_cal['']:,} on the project's 5-day "
        f"(08:00-12:00, 13:00-17:00, holidays), {by_cal['6d']:,} on a 6-day, {by_cal['7d']:,} on a 7-day; P6's rules "
        "(`options.tool = p6`).",
        "",
        "The peer is `bench/networkx_live.py`: the same computation in Python with NetworkX — each calendar laid out "
        "once as arrays of working periods and working-minute arithmetic by `bisect` over them, actual dates fixed, "
        "remaining work from the data date, the constraints, a forward and a backward pass over `nx.topological_sort` "
        "of the activity graph (one node per activity, one edge per relationship), total and free float, and the same "
        "report (offsets and the four dates of every activity) with the C JSON encoder.",
        "",
        "| measure | autoscheduler (Go) | NetworkX peer | ratio | target |",
        "|---|---:|---:|---:|---|",
        f"| whole command, read file to last byte of report | {ours * 1000:.0f} ms (median of {runs_ours}) | "
        f"{peer * 1000:.0f} ms (median of {runs_peer}) | **{ratio:.0f}x** | >= 40x: {'met' if ratio >= 40 else 'MISSED'} |",
        f"| the same, CPU time (user + system) | {ours_cpu * 1000:.0f} ms | {peer_cpu * 1000:.0f} ms | {peer_cpu / ours_cpu:.0f}x | |",
        f"| peer's phases: load JSON / calendars + graph / passes + report rows / write | | "
        f"{ph['load_s'] * 1000:.0f} / {ph['build_s'] * 1000:.0f} / {ph['cpm_s'] * 1000:.0f} / {ph['write_s'] * 1000:.0f} ms | | |",
        "",
        f"Project finish: autoscheduler {go_fin}, peer {nx_fin}. The four dates agree to the minute on "
        f"{same:,} of {n_act:,} activities, total and free float on {floats_same:,}. "
        f"Load average when this section started: {load[0]:.1f} on {os.cpu_count()} cores (wall times include "
        "waiting for a core; the CPU-time row does not).",
        "",
        LIVE_PROFILE,
        "",
    ]

    # B. 10k activities as an XER, MPXJ's PrimaveraScheduler.
    print("MPXJ 10k XER ...", file=sys.stderr)
    small = os.path.join(OUT, "live-10k.json")
    xer = os.path.join(OUT, "live-10k.xer")
    sh(gensched, "-live", "-n", "10000", "-width", "100", "-links", "2", "-seed", "1", "-o", small)
    small_rep = os.path.join(OUT, "live-10k-json-report.json")
    timed_cpu([binary, "schedule", "--file", small, "--format", "json"], small_rep)
    sh(sys.executable, "bench/live_xer.py", small, xer, small_rep)
    go_x = os.path.join(OUT, "xer-go-report.json")
    mp_x = os.path.join(OUT, "xer-mpxj-report.json")
    ours_x, ours_x_cpu, _ = _median_runs([binary, "schedule", "--file", xer, "--format", "json"], go_x, runs_ours)
    mp, mp_cpu, errs = _median_runs([sys.executable, "bench/mpxj_p6.py", xer, "--out", mp_x], os.devnull, runs_peer, "mpxj")
    mp_phases = [json.loads(e.strip().splitlines()[-1]) for e in errs]
    mph = {k: statistics.median(p[k] for p in mp_phases) for k in mp_phases[0]}
    with open(go_x) as f:
        gx = json.load(f)
    with open(mp_x) as f:
        mx = json.load(f)
    with open(small) as f:
        sdoc = json.load(f)
    status = {}
    for a in sdoc["activities"]:
        status[a["id"]] = "complete" if a.get("actual_finish") else "in progress" if a.get("actual_start") else "not started"
    theirs = {a["id"]: a for a in mx["activities"]}
    agree = {}
    for a in gx["activities"]:
        b = theirs.get(a["id"])
        st = status[a["id"]]
        tot, e, l = agree.get(st, (0, 0, 0))
        ok_e = b is not None and all(a[k][:16] == b[k][:16] for k in keys[:2])
        ok_l = b is not None and all(a[k][:16] == b[k][:16] for k in keys[2:])
        agree[st] = (tot + 1, e + ok_e, l + ok_l)
    gx_fin = max(a["early_finish_date"] for a in gx["activities"])[:16]
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    import importlib.metadata
    jp = importlib.metadata.version("JPype1")
    in_jvm = mph["read_s"] + mph["schedule_s"]
    ratio_x = mp / ours_x
    lines += [
        MPXJ_HEADER,
        "",
        f"Same file, same run: `bench/out/live-10k.xer` ({os.path.getsize(xer) / 2**20:.1f} MiB), the programme "
        "`gensched -live -n 10000 -width 100 -links 2 -seed 1` (as above at 10,000 activities: progress, constraints, "
        "three calendars) written as a P6 XER by `bench/live_xer.py` (SCHEDOPTIONS with P6's defaults, the data date, "
        "calendars with their holidays, the stored dates of a last scheduling run, which MPXJ's reader needs for "
        "in-progress durations and autoscheduler does not read). Ours: `autoscheduler schedule --file live-10k.xer "
        f"--format json`. Peer: `bench/mpxj_p6.py` — MPXJ {mx['mpxj']} (PyPI `mpxj`, JPype {jp}, {java}) reads the "
        "XER with `UniversalProjectReader` and runs `org.mpxj.cpm.PrimaveraScheduler` from the planned start, then "
        "writes each task's dates as JSON. Both are timed as whole processes (the JVM's start counts, as our process "
        "start does).",
        "",
        "| measure | autoscheduler (Go) | MPXJ peer | ratio | target |",
        "|---|---:|---:|---:|---|",
        f"| whole process: read XER, schedule, write report | {ours_x * 1000:.0f} ms (median of {runs_ours}) | "
        f"{mp * 1000:.0f} ms (median of {runs_peer}) | **{ratio_x:.0f}x** | >= 20x: {'met' if ratio_x >= 20 else 'MISSED'} |",
        f"| the same, CPU time (user + system; the JVM's threads included) | {ours_x_cpu * 1000:.0f} ms | {mp_cpu * 1000:.0f} ms | {mp_cpu / ours_x_cpu:.0f}x | |",
        f"| peer inside the JVM: read + schedule only | | {in_jvm * 1000:.0f} ms | {in_jvm / ours_x:.0f}x (vs our whole process) | |",
        f"| peer's phases: JVM start + load MPXJ / read / schedule / report through JPype | | "
        f"{mph['jvm_s'] * 1000:.0f} / {mph['read_s'] * 1000:.0f} / {mph['schedule_s'] * 1000:.0f} / {mph['write_s'] * 1000:.0f} ms | | |",
        "",
        f"Project finish (latest early finish): autoscheduler {gx_fin}, MPXJ {mx['project_finish']}"
        f"{' — the same' if gx_fin == mx['project_finish'][:16] else ''}. Dates that agree to the minute, by status:",
        "",
        "| status | activities | early start and finish agree | late start and finish agree |",
        "|---|---:|---:|---:|",
    ]
    for st in ["complete", "in progress", "not started"]:
        tot, e, l = agree.get(st, (0, 0, 0))
        lines.append(f"| {st} | {tot:,} | {e:,} | {l:,} |")
    lines += ["", LIVE_NOTE, ""]
    return lines


LIVE_NOTE = ("Where the dates differ: both tools keep finished work at the data date (or where its logic puts "
             "it), start remaining work from it and spend a finished activity's lag by the data date; they part "
             "on finish-to-finish and start-to-finish links into progressed work (a lag from finished work into "
             "an activity under way; start-finish links, for which MPXJ's own code says it has no example of "
             "P6's behaviour) and on the dates those links give: P6 writes an early finish an FF or SF link "
             "sets as the link's date (Thu 08:00 from a start, or the next start when it falls on a day off) and "
             "a late start an SS or SF link sets likewise, and goes on from there, which moves work on other "
             "calendars; MPXJ writes the end of the activity's own work. The differences flow on to the work "
             "after them. Neither file is P6's own "
             "output, so neither side is the tool here: against files P6 saved, ours match more tasks (see "
             "TestRealDates and the note of issue 28). The timing comparison is unaffected: both read the same "
             "file and schedule every activity.")

LIVE_PROFILE = ("Where our time goes (each step timed inside the whole command, 2026-11-27; this machine's speed "
                'varies by a third from run to run): reading the file 12-50 ms, decoding it 80-110 ms (on both '
                'cores, a long list in pieces), checking and compiling it 75-100 ms (ids, links, dates, on three '
                "goroutines), the passes with the report's figures 70-90 ms, writing the report 40-50 ms (formatted "
                'on both cores). Memory weighs on every step: the command touches about 160 MB, and a program that '
                'only reads the file, touches as much fresh memory and writes 41 MB takes 110-180 ms here with 4 KiB '
                'pages (40,000 page faults) and about 50 ms with 2 MiB pages. The file commands now ready a large '
                "file's heap for huge pages (40,000 faults to about 3,000): about 9% off the whole command, run in "
                'turns with the old binary, less when the kernel must find fresh huge pages. Also new: constraints '
                "decoded in place (two encoding/json decoders each before) and the live clock's lookups without "
                'time.Time arithmetic (the passes about 8% faster). Tried and dropped: an open-addressing id index '
                "holding short ids in its slots (slower than Go's map on 100k random lookups, 74 against 65 ns each) "
                'and dating the passes wave by wave (50% more CPU for no shorter wall time). The 40x target needs '
                "the whole command in a fortieth of the peer's time, 150 to 200 ms on this machine, less than "
                'decoding and checking alone take now; what is left is spread over every step, and 40x needs a '
                'schedule that is not decoded from JSON at all (a binary form kept beside the file, say), which is '
                'not built.')


SCALE_HEADER = "## Scale of one machine"

ROUNDTRIP_HEADER = "## A round trip that loses nothing: a 50,000-activity P6 file (issue 29)"


IMPORT_RUNS = 3


def roundtrip_section(binary):
    """Issue 29: import a 50k-activity XER with resources, export it unchanged and after changes, whole commands
    with peak memory; the peer is MPXJ reading and writing the same file."""
    gensched = os.path.join(OUT, "gensched")
    sh("go", "build", "-o", gensched, "./bench/gensched")
    src = os.path.join(OUT, "live-50k.json")
    xer = os.path.join(OUT, "roundtrip-50k.xer")
    sh(gensched, "-live", "-n", "50000", "-links", "2", "-seed", "1", "-o", src)
    sh(sys.executable, "bench/live_xer.py", src, xer, "--resources")
    db = os.path.join(OUT, "roundtrip.db")
    store = ["--db", db]
    # The import into an empty store, median of IMPORT_RUNS (its time varies by a second from run to run
    # on this machine); the store of the last run is the one exported from.
    imports = []
    for i in range(IMPORT_RUNS):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        print(f"  round trip: import run {i + 1}/{IMPORT_RUNS} ...", file=sys.stderr)
        imports.append(timed([binary, "import", xer, "--schedule", "big", *store])[:2])
    imp_wall = statistics.median(w for w, _ in imports)
    imp_rss = max(r for _, r in imports)
    same = os.path.join(OUT, "roundtrip-50k-same.xer")
    print("  round trip: export unchanged ...", file=sys.stderr)
    exp_wall, exp_rss, _ = timed([binary, "export", "--schedule", "big", "--format", "xer", "-o", same, *store])
    with open(xer, "rb") as a, open(same, "rb") as b:
        identical = a.read() == b.read()
    # The change set a dispatch makes (one activity deleted, one added after another, a link, a longer
    # duration), applied as a dispatch's ops land in the store: the stored schedule through JSON, changed,
    # imported over itself (the JSON carries the kept P6 file). What is timed is the export after it.
    js = os.path.join(OUT, "roundtrip-50k.json")
    timed([binary, "export", "--schedule", "big", "--format", "json", "-o", js, *store])
    with open(js) as f:
        s = json.load(f)
    acts = s["activities"]
    gone = acts[-1]["id"]
    acts.pop()
    acts.insert(1, {"id": "NEW1", "name": "Added by the benchmark", "duration": "3"})
    acts[2]["duration"] = str(float(acts[2]["duration"]) + 2)
    rels = [r for r in s["relationships"] if gone not in (r["predecessor"], r["successor"])]
    rels.append({"id": "NEWR1", "type": "FS", "predecessor": acts[0]["id"], "successor": "NEW1", "lag": 0})
    s["relationships"] = rels
    with open(js, "w") as f:
        json.dump(s, f)
    timed([binary, "import", js, "--schedule", "big", "--replace", *store])
    changed = os.path.join(OUT, "roundtrip-50k-changed.xer")
    print("  round trip: export after the changes ...", file=sys.stderr)
    chg_wall, chg_rss, _ = timed([binary, "export", "--schedule", "big", "--format", "xer", "-o", changed, *store])
    peer_out = os.path.join(OUT, "roundtrip-50k-mpxj.xer")
    print("  round trip: MPXJ read and write ...", file=sys.stderr)
    peer_wall, peer_rss, peer_err = timed([sys.executable, "bench/mpxj_roundtrip.py", xer, peer_out])
    ph = json.loads(peer_err.strip().splitlines()[-1])
    with open(xer, encoding="latin-1") as f:
        text = f.read()
    rows = {}
    for line in text.splitlines():
        if line.startswith("%T\t"):
            table = line[3:]
            rows[table] = 0
        elif line.startswith("%R"):
            rows[table] += 1
    n_tasks, n_rels, n_asg = rows.get("TASK", 0), rows.get("TASKPRED", 0), rows.get("TASKRSRC", 0)

    def verdict(wall, rss):
        return "met" if wall < 10 and rss < 1024 else "MISSED"

    return [
        ROUNDTRIP_HEADER,
        "",
        f"Same file, same run: `bench/out/roundtrip-50k.xer` ({os.path.getsize(xer) / 2**20:.1f} MiB), the programme "
        "`gensched -live -n 50000 -links 2 -seed 1` written as a P6 XER by `bench/live_xer.py --resources`: "
        f"{n_tasks:,} activities, {n_rels:,} relationships, {rows.get('RSRC', 0)} resources with rates, {n_asg:,} "
        "assignments, an activity code and a UDF on every activity, progress, constraints, three calendars; "
        f"{len(rows)} tables. Ours: whole `autoscheduler` commands on the embedded store (`--db`), timed from exec "
        "to exit with their peak memory (max RSS). The change set is a dispatch's (one activity deleted, one added "
        "after another with its link, one duration longer), applied to the stored schedule through JSON and "
        "`import --replace` (the JSON carries the kept P6 file), so only the export after it is timed. "
        f"Peer: `bench/mpxj_roundtrip.py` — MPXJ {ph.get('mpxj', '16.10')} reads the XER and writes it back as XER "
        f"(whole process, JVM start included; it read {ph['tasks']:,} tasks, {ph['resources']} resources, "
        f"{ph['assignments']:,} assignments).",
        "",
        "| command | time | peak memory | target (< 10 s, < 1 GB) |",
        "|---|---:|---:|---|",
        f"| `import` (read, check, graph and search stores, the file kept; median of {IMPORT_RUNS}, runs {', '.join(f'{w:.1f}' for w, _ in imports)} s, the largest peak memory) | {imp_wall:.1f} s | {imp_rss:.0f} MiB | {verdict(imp_wall, imp_rss)} |",
        f"| `export --format xer`, unchanged (the file back{' byte for byte' if identical else ' — NOT identical'}) | {exp_wall:.1f} s | {exp_rss:.0f} MiB | {verdict(exp_wall, exp_rss)} |",
        f"| `export --format xer` after the changes | {chg_wall:.1f} s | {chg_rss:.0f} MiB | {verdict(chg_wall, chg_rss)} |",
        f"| peer: MPXJ read + write XER (JVM start / read / write: {ph['jvm_s']:.1f} / {ph['read_s']:.1f} / {ph['write_s']:.1f} s) | {peer_wall:.1f} s | {peer_rss:.0f} MiB | |",
        "",
        f"Ratios: export unchanged {peer_wall / exp_wall:.1f}x the peer's read + write, after changes "
        f"{peer_wall / chg_wall:.1f}x; import (which also builds the graph and the search index MPXJ does not) "
        f"{peer_wall / imp_wall:.1f}x.",
        "",
    ]


COMPARE_HEADER = "## Compare two versions: 100,000 activities each (issue 30)"


def compare_section(binary):
    """Issue 30: `compare A B` on two 100k-activity versions, whole commands with peak memory (target < 2 s, < 1 GB)."""
    gensched = os.path.join(OUT, "gensched")
    sh("go", "build", "-o", gensched, "./bench/gensched")
    a = os.path.join(OUT, "compare-100k-a.json")
    b = os.path.join(OUT, "compare-100k-b.json")
    sh(gensched, "-n", "100000", "-links", "2", "-seed", "1", "-o", a)
    # A month's update: one activity in fifty 3 d longer, one in five hundred deleted with its links and as many
    # added (each after an existing one), one link in a hundred with 2 d more lag.
    with open(a) as f:
        s = json.load(f)
    gone = set()
    acts = []
    for i, act in enumerate(s["activities"]):
        if i % 500 == 250:
            gone.add(act["id"])
            continue
        if i % 50 == 7:
            act["duration"] = str(float(act["duration"]) + 3)
        acts.append(act)
    rels = []
    for k, r in enumerate(s["relationships"]):
        if r["predecessor"] in gone or r["successor"] in gone:
            continue
        if k % 100 == 3:
            r["lag"] = r["lag"] + 2
        rels.append(r)
    for i in range(len(gone)):
        acts.append({"id": f"N{i}", "name": f"Added {i}", "duration": "4"})
        rels.append({"id": f"NR{i}", "type": "FS", "predecessor": acts[i * 100]["id"], "successor": f"N{i}", "lag": 0})
    s["activities"], s["relationships"] = acts, rels
    with open(b, "w") as f:
        json.dump(s, f)
    rows = []
    for label, extra in (("table (default)", []), ("`--json`", ["--json"]), ("`--format html`", ["--format", "html"])):
        runs = []
        for i in range(RUNS):
            print(f"  compare {label}, run {i + 1}/{RUNS} ...", file=sys.stderr)
            runs.append(timed([binary, "compare", a, b, *extra], os.path.join(OUT, "compare-out"))[:2])
        wall, rss = statistics.median(w for w, _ in runs), max(r for _, r in runs)
        rows.append(f"| `compare A B` {label} | {wall:.2f} s | {rss:.0f} MiB | {'met' if wall < 2 and rss < 1024 else 'MISSED'} |")
    timed([binary, "compare", a, b, "--json"], os.path.join(OUT, "compare-out.json"))
    with open(os.path.join(OUT, "compare-out.json")) as f:
        rep = json.load(f)
    fin = rep.get("finish") or {}
    return [
        COMPARE_HEADER,
        "",
        f"Two versions of `gensched -n 100000 -links 2 -seed 1` ({os.path.getsize(a) / 2**20:.0f} MiB of JSON each): B is A "
        f"with {len(rep['activities_changed']):,} activities changed, {len(rep['activities_added'])} added and "
        f"{len(rep['activities_removed'])} removed, {len(rep['relationships_added'])} links added, "
        f"{len(rep['relationships_removed'])} removed and {len(rep['relationships_changed']):,} changed. Whole commands, "
        f"timed from exec to exit with their peak memory (median of {RUNS}): both files read, CPM on both, the comparison, "
        f"the finish explained along the driving path ({len(fin.get('path', [])):,} activities; the finish moved "
        f"{fin.get('days', 0)} working days), {len(rep['float_erosion']):,} activities with float erosion.",
        "",
        "| command | time | peak memory | target (< 2 s, < 1 GB) |",
        "|---|---:|---:|---|",
        *rows,
        "",
    ]


def web_section():
    """The review web app (internal/web benchmarks on the in-process dev server, pages in headless Chromium)."""
    print("web app benchmarks ...", file=sys.stderr)
    res = sh("go", "test", "-run", "^$", "-bench", "ReviewPage25Ops|ReviewGantt25Ops|CLIProposal25Ops|SchedulePage5000|ScheduleGantt5000|GanttPage5000",
             "-benchtime", "10x", "./internal/web/", capture_output=True)
    got = {}
    for line in res.stdout.splitlines():
        m = re.match(r"^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+(.*)$", line)
        if not m:
            continue
        metrics = dict((unit, float(v)) for v, unit in re.findall(r"([\d.]+) (\S+)", m.group(2)))
        got[m.group(1)] = metrics
    need = ["ReviewPage25Ops", "ReviewGantt25Ops", "CLIProposal25Ops", "SchedulePage5000", "ScheduleGantt5000",
            "SchedulePage5000InChromium", "GanttPage5000InChromium"]
    if any(n not in got for n in need):
        sys.exit("web benchmarks missing:\n" + res.stdout + res.stderr)
    ms = lambda n: got[n]["ns/op"] / 1e6
    load = lambda n: got[n]["ms/page-load"]
    ok = lambda v, t: "met" if v <= t else "MISSED"
    page, gantt = load("SchedulePage5000InChromium"), load("GanttPage5000InChromium")
    review, cli = ms("ReviewPage25Ops"), ms("CLIProposal25Ops")
    return [
        "## Review web app",
        "",
        "`internal/web` benchmarks, same run: the app on the in-process Temporal dev server with a worker and the embedded "
        "store. Server time is one request through the app's handler, from request to the last byte of the page. "
        "Browser time is headless Chromium on this machine, from the navigation's start until the page and its Gantt "
        "frame hold every bar and that state is painted.",
        "",
        "| measure | app | peer | ratio | target |",
        "|---|---:|---:|---:|---|",
        f"| review page of a 25-op proposal, server time (peer: the proposal Update `prompt` shows the same proposal with) "
        f"| {review:.0f} ms | {cli:.0f} ms | {review / cli:.1f}x | < 300 ms: {ok(review, 300)} |",
        f"| its before/after Gantt frame, server time | {ms('ReviewGantt25Ops'):.0f} ms | | | |",
        f"| schedule page, 5,000 activities and 10,000 links, usable in Chromium (peer: the Gantt page alone, as "
        f"`schedule --format gantt-html` writes it) | {page:.0f} ms | {gantt:.0f} ms | {page / gantt:.1f}x | <= 1.5 s: {ok(page, 1500)} |",
        f"| the same page, server time (15,000 links; the Gantt drawn alongside) | {ms('SchedulePage5000'):.0f} ms | | | |",
        f"| its Gantt frame drawn afresh (a frame reloaded later), server time | {ms('ScheduleGantt5000'):.0f} ms | | | |",
        "",
        "The Gantt's left pane is HTML laid out in blocks of 100 rows that Chromium skips while they are off screen "
        "(as SVG text it cost 0.8 s of the Gantt's 1.4 s); the page's frame shows the Gantt drawn from the page's own "
        "load of the schedule, and the activity table below it is laid out only when scrolled to.",
        "",
    ]


def measured_or_kept(section, header):
    """section(), or when it fails in this run the section as BENCHMARKS.md holds it, marked as not re-measured."""
    try:
        return section()
    except (subprocess.CalledProcessError, SystemExit) as e:
        out = (getattr(e, "stdout", None) or "") + (getattr(e, "stderr", None) or "") or str(e)
        why = [l.strip() for l in out.splitlines() if "FAIL" in l or "_test.go" in l or "failed" in l][:4]
        print(f"{header}: failed in this run, keeping the previous numbers: {'; '.join(why) or out[-300:]}", file=sys.stderr)
        kept = kept_section(header)
        note = (f"**Not re-measured in the run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}** (the numbers "
                f"are an earlier run's): it failed — {'; '.join(why) or 'see make bench output'}.")
        return (kept[:2] + [note, ""] + kept[2:]) if kept else [header, "", note, ""]


def kept_section(header):
    """A section measured by hand (not by this script), kept as it stands."""
    path = os.path.join(ROOT, "BENCHMARKS.md")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    at = text.find(header)
    if at < 0:
        return []
    rest = text[at:]
    nxt = rest.find("\n## ", 1)
    return (rest[:nxt + 1] if nxt >= 0 else rest).rstrip("\n").split("\n") + [""]


def build_cli():
    """bin/autoscheduler as `make build` installs it: the front and the CLI it hands off to."""
    subprocess.run(["go", "build", "-o", os.path.join(ROOT, "bin", "autoscheduler"), "./starter/front"], cwd=ROOT,
                   env=dict(ENV, CGO_ENABLED="0"), check=True)
    sh("go", "build", "-tags", "lite", "-o", os.path.join(ROOT, "bin", "autoscheduler-cli"), "./starter")


START_LOAD = os.getloadavg()


def replace_section(text, header, body):
    """BENCHMARKS.md with the section under header replaced by body (or body added before the stores' section)."""
    if header in text:
        head, rest = text.split(header, 1)
        nxt = rest.find("\n## ")
        return head + body + (rest[nxt + 1:] if nxt >= 0 else "")
    anchor = "## Stores: import and search"
    return text.replace(anchor, body + "\n" + anchor) if anchor in text else text.rstrip("\n") + "\n\n" + body


def head_sections(binary):
    """The file's head and the plain engine's sections: Go benchmarks of the CPM engine and the whole command
    against the NetworkX peer on a 100k-activity file."""
    sh("go", "build", "-o", os.path.join(OUT, "gensched"), "./bench/gensched")
    sched = os.path.join(OUT, "synthetic-100k.json")
    sh(os.path.join(OUT, "gensched"), "-n", "100000", "-links", "3", "-seed", "1", "-o", sched)
    with open(sched) as f:
        doc = json.load(f)
    n_act, n_rel = len(doc["activities"]), len(doc["relationships"])

    print("go benchmarks ...", file=sys.stderr)
    gb = go_benchmarks()

    ours, peer, peer_phases = [], [], []
    for i in range(RUNS):
        print(f"whole commands, run {i + 1}/{RUNS} ...", file=sys.stderr)
        ours.append(timed([binary, "schedule", "--file", sched, "--format", "json"], os.path.join(OUT, "go-report.json"))[:2])
        wall, rss, err = timed([sys.executable, "bench/networkx_cpm.py", sched, "--out", os.path.join(OUT, "nx-report.json")], os.devnull)
        peer.append((wall, rss))
        peer_phases.append(json.loads(err.strip().splitlines()[-1]))

    with open(os.path.join(OUT, "go-report.json")) as f:
        go_T = json.load(f)["project_duration"]
    with open(os.path.join(OUT, "nx-report.json")) as f:
        nx_T = json.load(f)["project_duration"]

    ours_wall = statistics.median(w for w, _ in ours)
    peer_wall = statistics.median(w for w, _ in peer)
    ours_rss = max(r for _, r in ours)
    peer_rss = max(r for _, r in peer)
    nx_cpm = statistics.median(p["build_s"] + p["cpm_s"] for p in peer_phases)
    nx_passes = statistics.median(p["cpm_s"] for p in peer_phases)
    g100 = {r["bench"]: r for r in gb if r["activities"] == 100000}
    g1m = {r["bench"]: r for r in gb if r["activities"] == 1000000}

    cpu = cpu_model()
    go_version = sh("go", "version", capture_output=True).stdout.strip()
    import networkx
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (bench/run.py); every number below comes from one run on one machine.",
        f"Machine: {cpu}, {os.cpu_count()} cores; {go_version}; Python {platform.python_version()}, NetworkX {networkx.__version__}.",
        f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Whole-command times are medians of {RUNS} runs. "
        f"Load average at the start: {START_LOAD[0]:.1f} (the cores may be shared; wall times include waiting for one).",
        "",
        "## CPM engine (Go benchmarks, one core: `-cpu 1`)",
        "",
        "Synthetic schedules (`schedule.Synthetic(n, 3, 1)`): about 3 relationships per activity, "
        "60% FS, 20% SS, 10% FF, 10% SF, lags -2..5 days, each link from one of the previous 50 activities.",
        "`Compute` is the full CPM on a compiled network (forward pass, backward pass, total and free float); "
        "`Analyze` adds compiling (string ids to indices, duration parsing, link arrays, topological sort, cycle check).",
        "",
        "| benchmark | activities | relationships | time | allocated | bytes per activity+relationship | allocs |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in gb:
        lines.append(f"| {r['bench']} | {r['activities']:,} | {r['relationships']:,} | {r['seconds'] * 1000:.1f} ms | "
                     f"{r['mb']:.1f} MiB | {r['b_per_item']:.1f} | {r['allocs']:,} |")
    c1m = g1m.get("Compute")
    a1m = g1m.get("Analyze")
    lines += [
        "",
        "Targets: full CPM for 1M activities + 3M relationships <= 1 s on one core: "
        f"**{c1m['seconds']:.2f} s** (Compute){'' if c1m['seconds'] <= 1 else ' — MISSED'}; "
        f"with compiling (Analyze) {a1m['seconds']:.2f} s{'' if a1m['seconds'] <= 1 else ' (over 1 s: see the note below)'}. "
        f"<= 300 bytes per activity+relationship: **{max(r['b_per_item'] for r in gb):.0f} B** at most.",
        "",
        "Compiling is the expensive part at a million activities: turning 1M string ids into indices takes one "
        "hash-map insert per activity and up to two lookups per relationship, and at this size nearly every one "
        "is a cache miss. The passes themselves touch only dense arrays. A schedule that is computed more than "
        "once (the impact of each proposed change, say) is compiled once.",
        "",
        "## Against the seed design's approach: NetworkX over the s/intra/e node graph",
        "",
        f"Same file, same run: `bench/out/synthetic-100k.json`, {n_act:,} activities and {n_rel:,} relationships "
        f"({os.path.getsize(sched) / 2**20:.1f} MiB). The peer is `bench/networkx_cpm.py`: it loads the file, builds the "
        "node graph (3 nodes per activity, 1 per relationship), runs a forward and a backward longest-path pass over "
        "`nx.topological_sort`, and writes the same report with the C JSON encoder.",
        "",
        "| measure | autoscheduler (Go) | NetworkX peer | ratio |",
        "|---|---:|---:|---:|",
        f"| whole command, read file to last byte of report | {ours_wall * 1000:.0f} ms | {peer_wall * 1000:.0f} ms | **{peer_wall / ours_wall:.0f}x** |",
        f"| CPM: compile/build graph + passes + floats | {g100['Analyze']['seconds'] * 1000:.1f} ms | {nx_cpm * 1000:.0f} ms | **{nx_cpm / g100['Analyze']['seconds']:.0f}x** |",
        f"| CPM passes and floats only | {g100['Compute']['seconds'] * 1000:.1f} ms | {nx_passes * 1000:.0f} ms | {nx_passes / g100['Compute']['seconds']:.0f}x |",
        f"| peak memory (max RSS) of the whole command | {ours_rss:.0f} MiB | {peer_rss:.0f} MiB | {peer_rss / ours_rss:.1f}x |",
        "",
        f"Target: >= 50x faster than NetworkX on 100k (the whole command): "
        f"{'met' if peer_wall / ours_wall >= 50 else 'MISSED'}. Project duration: autoscheduler {go_T}, peer {nx_T} working days. "
        "They differ where FF and SF links bind: in the node graph an FF or SF link delays an activity's end node "
        "without moving its start, so the activity stretches; MS Project and P6 (and autoscheduler) keep durations "
        "and move the start instead. The peer does the same amount of work, so the timing comparison stands.",
        "",
    ]
    return lines


def in_place(update):
    """Rewrites BENCHMARKS.md with update(text, binary), which measures and returns the new text and what to
    print: one part of the file, measured alone."""
    os.makedirs(OUT, exist_ok=True)
    build_cli()
    path = os.path.join(ROOT, "BENCHMARKS.md")
    with open(path) as f:
        text = f.read()
    text, shown = update(text, os.path.join(ROOT, "bin", "autoscheduler"))
    with open(path, "w") as f:
        f.write(text)
    print(shown)


def update_head(text, binary):
    """The head and the plain engine's sections: `python3 bench/run.py cpm`."""
    head = "\n".join(head_sections(binary))
    at = text.find(LIVE_HEADER)
    return (head + text[at:] if at >= 0 else head), head


def update_live(text, binary):
    """The live programme's two sections: `python3 bench/run.py live`."""
    new = live_sections(binary)
    at = new.index(MPXJ_HEADER)
    for header, section in ((LIVE_HEADER, new[:at]), (MPXJ_HEADER, new[at:])):
        text = replace_section(text, header, "\n".join(section))
    return text, "\n".join(new)


def update_corpus(text, _binary):
    """The language corpus's section: `python3 bench/run.py corpus`."""
    section = "\n".join(corpus_section())
    if CORPUS_HEADER in text:
        head, rest = text.split(CORPUS_HEADER, 1)
        nxt = rest.find("\n## ")
        return head + section + (rest[nxt + 1:] if nxt >= 0 else ""), section
    return text.rstrip("\n") + "\n\n" + section, section


def update_one(header, section):
    """One section under header, measured by section(binary): roundtrip, compare, stores."""
    def update(text, binary):
        body = "\n".join(section(binary))
        return replace_section(text, header, body), body
    return update


def main():
    parts = {"cpm": update_head, "live": update_live, "corpus": update_corpus,
             "roundtrip": update_one(ROUNDTRIP_HEADER, roundtrip_section),
             "compare": update_one(COMPARE_HEADER, compare_section),
             "stores": update_one("## Stores: import and search", lambda _binary: store_section())}
    if len(sys.argv) == 2 and sys.argv[1] in parts:
        in_place(parts[sys.argv[1]])
        return
    os.makedirs(OUT, exist_ok=True)
    binary = os.path.join(ROOT, "bin", "autoscheduler")
    build_cli()
    lines = head_sections(binary)
    lines += live_sections(binary)
    lines += roundtrip_section(binary)
    lines += compare_section(binary)
    lines += store_section()
    lines += kept_section(SCALE_HEADER)
    lines += measured_or_kept(dispatch_section, "## Dispatch overhead")
    lines += measured_or_kept(web_section, "## Review web app")
    lines += measured_or_kept(llm_section, "## LLM calls and prompt tokens per dispatch")
    lines += measured_or_kept(corpus_section, CORPUS_HEADER)
    lines += kept_section("## Schedule risk (Monte Carlo)")  # make bench-risk writes it
    lines += kept_section("## Scale-out: a Temporal cluster under load")  # make loadtest writes it
    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
