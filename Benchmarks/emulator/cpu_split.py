#!/usr/bin/env python3
"""Splits a server's CPU samples into the parts of a request: reads `perf script` output (a `perf record -g` of
the emulator under load) and charges each sample to the part of the first frame, from the leaf up, that names one.

Usage: perf script -i perf.data | cpu_split.py [--requests N --seconds S]
    With the requests answered and the seconds recorded, it also prints µs of CPU per request for each part
    (the samples' share of the process's CPU time, which `run-cpu-split.sh` measures from /proc/PID/stat).
Frames that name no part (allocation, reference counting, libc, the kernel's own) are charged to the first frame
above them that does: a `free` under SQLite is SQLite's, a `sendmsg` under the HTTP layer is HTTP's. A sample with
no such frame at all is "other".
"""
import argparse
import re
import sys

# The parts, in the order they are tried on each frame; the first pattern that matches a frame names its part.
PARTS = [
    ("SQL: SQLite", re.compile(r"\(.*libsqlite3[^)]*\)$")),
    ("SQL: statements (cache, binding, stepping, reading rows)",
     re.compile(r"cachedStatement|ParameterBinder|ReadAssembler|StatementSource|SQLitePool|PoolAccess|"
                r"SQLitePooledConnection|SQLiteKit|Statement\.|DatabaseStatement|PostgreSQLKit|libpq")),
    ("writing the answer (JSON, entity ids)",
     re.compile(r"GraphQLResponse|JSONWriter|EntityIDStripper|Execution\.write|HTTPResponse|ResponseTranscoder")),
    ("decoding the request (JSON body, token)",
     re.compile(r"RequestDecoding|JSONReader|JSONParser|AuthContext\.decode|GraphQLRequest")),
    ("variables, arguments, authorization",
     re.compile(r"VariableCoercer|ArgumentResolver|ScalarCodec|InputTypeKinds|authorize|readPlan|CompiledOperation")),
    ("time limits and lanes (budget, watchdog)",
     re.compile(r"RequestBudget|DeadlineWatchdog|RequestLanes|LaneWorker|SlowLane|RequestCancellation")),
    ("routing, origin policy, request log",
     re.compile(r"APIRoute|Route\.|RequestOriginPolicy|HTTPHeaders|RequestLog")),
    ("the rest of the engine and the responder", re.compile(r"Engine\.|Execution|EmulatorResponder")),
    ("HTTP layer (connections, parsing, sending)",
     re.compile(r"\(.*libmicrohttpd[^)]*\)$|ServerCore|HTTP1|EventLoop|ConnectionDispatcher|HTTPServer|"
                r"LingeringClose|__libc_sendmsg|__libc_recv|__libc_send|writev|epoll_wait|__GI___poll")),
    ("scheduling (futex waits and wake-ups)", re.compile(r"futex|pthread_cond|NSCondition")),
    ("the kernel alone (interrupts, the scheduler)", re.compile(r"\[kernel\.kallsyms\]")),
]


def parts_of(stack):
    """The part of a sample whose frames, leaf first, are `stack`."""
    for frame in stack:
        for name, pattern in PARTS:
            if pattern.search(frame):
                return name
    return "other"


def samples(lines):
    """Each sample's frames, leaf first (the symbol and its object, as `perf script` prints them)."""
    stack = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if stack:
                yield stack
            stack = []
            continue
        if line.startswith((" ", "\t")):
            frame = line.strip()
            # "addr symbol+off (object)": keep symbol and object.
            frame = frame.split(" ", 1)[1] if " " in frame else frame
            stack.append(frame)
    if stack:
        yield stack


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int)
    parser.add_argument("--cpu-seconds", type=float, help="the process's CPU time over the recording")
    args = parser.parse_args()
    counts = {}
    total = 0
    for stack in samples(sys.stdin):
        part = parts_of(stack)
        counts[part] = counts.get(part, 0) + 1
        total += 1
    if not total:
        sys.exit("cpu_split: no samples")
    per_request = args.requests and args.cpu_seconds
    print("| part | share of the server's CPU |" + (" µs per request |" if per_request else ""))
    print("|---|---:|" + ("---:|" if per_request else ""))
    for name, _ in PARTS + [("other", None)]:
        if name not in counts:
            continue
        share = counts[name] / total
        row = f"| {name} | {share * 100:.1f}% |"
        if per_request:
            row += f" {share * args.cpu_seconds / args.requests * 1e6:.1f} |"
        print(row)
    if per_request:
        print(f"| total | 100% | {args.cpu_seconds / args.requests * 1e6:.1f} |")
    print(f"\n{total} samples")


if __name__ == "__main__":
    main()
