#!/usr/bin/env python3
"""Where `testsuite-bench`'s time goes: perf samples (cpu-clock, DWARF call graphs) sorted into buckets.

  profile.py start  [--runs 12]   fresh processes: (a) the emulator's start, its parts; (b) the first answer
  profile.py rounds [--rounds 3]  rounds of 1,000 operations: CPU per 1,000 operations, by who spends it
  --show-other N                  also print the N heaviest stacks no rule claims

Needs `perf` (linux-perf) and a release build (`make bench-testsuite` makes one). Figures are CPU milliseconds of
the benchmark's process (all threads), averaged per fresh process or per round; on a busy machine they grow with
the load, the shares much less. Samples are sorted by the first rule whose function appears on their stack, so
each is counted once; "other" is mostly samples whose stack perf could not unwind (malloc, lazy binding).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, ".build", "release", "testsuite-bench")
BACKEND = os.path.join(HERE, "backend")

# (a): the parts of `Emulator.init` (mangled-name fragments), in the order it runs them.
START_PARTS = [
    ("compile the schema and connector (ServiceCompiler), then plan every operation (StartChecks)",
     ["Emulator0C0C7compile_6limits3log"]),
    ("open the SQLite store", ["StoreConfigurationO4open"]),
    ("migrate: create the 20 tables", ["Emulator0C0C7migrate_5store"]),
    ("Engine.init: plan every operation again, introspection", ["DataConnectEngine0C0C7service8database"]),
    ("validate the seed file (validate, plan)", ["Emulator0C0C12validateSeed8fromFile"]),
    ("run the seed (validate and plan it again, then execute)", ["Emulator0C0C11seedIfEmpty8fromFile"]),
    ("the realtime hub", ["SubscriptionHubC6engine13configuration"]),
]
# Operations and first answer: who spends the CPU. Emulator first (it runs inside the transport's closure).
OPERATION_RULES = [
    ("emulator: SQLite (prepare, step, BEGIN/COMMIT)", ["sqlite3_"]),
    ("emulator: ID-token decoding (AuthContext.decode)", ["AuthContextV6decode5token"]),
    ("emulator: the rest (routing, request JSON, plans, arguments, JSON answer, realtime hub)",
     ["0C9ResponderC7respond2to"]),
    ("DataConnectTesting: InProcessTransport.httpRequest(from:)", ["InProcessTransportV11httpRequest4from"]),
    ("SDK: FirebaseAuth (the first Auth instance: URLSession, cookie storage, Bundle.main; its streams)",
     ["12FirebaseAuth"]),
    ("DataConnectTesting: attach (stand-in: app, DataConnect, token provider's watch; end)",
     ["EmulatorAttachment", "6attach9isolation", "OriginalAuth"]),
    ("SDK: URLRequest building (URLSessionTransport.makeURLRequest)", ["makeURLRequest3for"]),
    ("SDK: variables encoding (JSONEncoder; UUIDs through replacingOccurrences)", ["OperationCodecO6encode"]),
    ("SDK: Decodable of the answer (OperationCodec.decode)", ["OperationCodecO6decode"]),
    ("SDK: uid from the token (TokenSubject.uid)", ["TokenSubjectO3uid"]),
    ("SDK: publishing to observers (QueryRefObservation.publish)", ["QueryRefObservationC7publish"]),
    ("SDK: answer JSON parsing (URLSessionTransport.decode)", ["URLSessionTransportC6decode"]),
    ("SDK: the test's EmulatorAuth sign-in", ["EmulatorAuth"]),
    ("SDK: the rest (refs, requests, substitution)", ["FirebaseDataConnect", "ShopConnector"]),
    ("Swift concurrency and dispatch (task switches, thread wake-ups)",
     ["swift_task", "_dispatch", "swift_job_run", "futex"]),
    ("the benchmark's own code (checks, timing)", ["TestSuiteBench"]),
    ("kernel: system calls and page faults", ["entry_SYSCALL", "asm_exc_page_fault"]),
]


def record(command, env=None):
    """Runs `command` under perf; returns its samples as (comm, pid, time in ns, period in ns, stack)."""
    with tempfile.TemporaryDirectory() as directory:
        data = os.path.join(directory, "perf.data")
        subprocess.run(
            ["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-F", "4000", "--call-graph", "dwarf,65528",
             "-o", data, "--"] + command,
            check=True, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "err"), "w"))
        with open(os.path.join(directory, "err")) as errors:
            phases = [tuple(int(x) for x in line.split()[1:]) for line in errors if line.startswith("phases ")]
        script = subprocess.run(
            ["perf", "script", "-i", data, "-F", "comm,pid,time,period,ip,sym"],
            check=True, capture_output=True, text=True).stdout
    samples, head, stack = [], None, []
    for line in script.splitlines() + [""]:
        if not line.strip():
            if head:
                samples.append(head + (stack,))
            head, stack = None, []
        elif not line.startswith("\t"):
            match = re.match(r"\s*(.+?)\s+(\d+)\s+([\d.]+):\s+(\d+)", line)
            if match:
                head = (match[1], int(match[2]), int(round(float(match[3]) * 1e9)), int(match[4]))
        else:
            parts = line.strip().split(None, 1)
            stack.append(re.sub(r" \(inlined\)$", "", parts[1] if len(parts) > 1 else parts[0]))
    return samples, phases


def buckets(samples, rules, show_other=0, scale=1.0):
    totals, others = collections.Counter(), collections.Counter()
    for _, _, _, period, stack in samples:
        label = next((label for label, subs in rules if any(s in f for f in stack for s in subs)), "other")
        totals[label] += period
        if label == "other":
            others[" < ".join(f[:60] for f in stack[:4]) or "?"] += period
    for stack, period in others.most_common(show_other):
        print(f"  other: {period * scale:6.2f}  {stack}")
    return totals


def table(title, totals, order, scale, unit):
    total = sum(totals.values())
    print(f"\n{title}: {total * scale:,.1f} {unit}\n")
    print(f"| part | {unit} | share |\n|---|---:|---:|")
    for label in order + ["other"]:
        if totals[label]:
            print(f"| {label} | {totals[label] * scale:,.2f} | {totals[label] / total:.0%} |")


def profile_start(runs, show_other):
    env = dict(os.environ, TESTSUITE_BENCH_PHASES="1")
    command = ["sh", "-c", f'for i in $(seq {runs}); do "{BENCH}" --child --backend "{BACKEND}"; done']
    samples, phases = record(command, env)
    ours = [s for s in samples if s[0] not in ("sh", "perf", "perf-exec")]
    a = [s for s in ours if any(x <= s[2] < y for x, y, _ in phases)]
    b = [s for s in ours if any(y <= s[2] < z for _, y, z in phases)]
    scale = 1e-6 / len(phases)
    table(f"(a) start, CPU per fresh process ({len(phases)} processes)", buckets(a, START_PARTS, show_other, scale),
          [label for label, _ in START_PARTS], scale, "ms")
    table("(b) first answer, CPU per fresh process", buckets(b, OPERATION_RULES, show_other, scale),
          [label for label, _ in OPERATION_RULES], scale, "ms")
    before_main = [s for s in ours if not any(x <= s[2] < z for x, _, z in phases)]
    print(f"\nOutside (a) and (b) (loading, runtime start, exit): {sum(s[3] for s in before_main) * scale:,.1f} ms")


def profile_rounds(rounds, show_other):
    command = [BENCH, "--runs", "1", "--rounds", str(rounds), "--backend", BACKEND]
    samples, _ = record(command)
    pids = collections.Counter(s[1] for s in samples if s[0] not in ("sh", "perf", "perf-exec", "swift", "git"))
    parent = pids.most_common(1)[0][0]  # the rounds' process; its one child answers in a fraction of the time
    in_rounds = [s for s in samples if s[1] == parent and any(
        "Workload" in f or "respond2to" in f or "_dispatch_worker_thread" in f for f in s[4])]
    scale = 1e-6 / rounds
    table(f"Rounds: CPU per 1,000 operations ({rounds} rounds)", buckets(in_rounds, OPERATION_RULES, show_other, scale),
          [label for label, _ in OPERATION_RULES], scale, "ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["start", "rounds"])
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--show-other", type=int, default=0, help="print the N heaviest stacks no rule claims")
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        sys.exit(f"profile.py: build first: swift build -c release --package-path {HERE} --product testsuite-bench")
    if args.what == "start":
        profile_start(args.runs, args.show_other)
    else:
        profile_rounds(args.rounds, args.show_other)


if __name__ == "__main__":
    main()
