#!/usr/bin/env python3
"""Writes a synthetic request log (CSV) for the import benchmark and the 1 GB budget check.

    scripts/gen_request_log.py OUT.csv --bytes 1G        # about 20 M calls
    scripts/gen_request_log.py OUT.csv --calls 1000000

One dependency call a line: epoch timestamps in seconds with microseconds, durations in ms, HTTP
statuses, 5000 keys, 16 pods, request ids, and a retry after every failure; an outage in the
middle third (refused connections, then timeouts). Deterministic: the same arguments write the
same bytes.
"""
import argparse
import random
import sys


def parse_size(text):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    if text[-1].lower() in units:
        return int(float(text[:-1]) * units[text[-1].lower()])
    return int(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--bytes", type=parse_size, help="stop at about this size (e.g. 1G)")
    parser.add_argument("--calls", type=int, help="stop after this many calls")
    parser.add_argument("--rps", type=float, default=2000.0, help="requests per second")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not args.bytes and not args.calls:
        args.calls = 1_000_000
    rng = random.Random(args.seed)
    # Lines are 45-50 bytes; the outage takes the middle third of the expected span.
    expected_calls = args.calls or args.bytes // 48
    span = expected_calls / args.rps / 1.1
    outage = (span / 3, 2 * span / 3)
    start = 1_788_876_131  # 2026-09-08T14:02:11Z
    written = calls = request = 0
    t = 0.0
    gap = 1.0 / args.rps
    with open(args.out, "w", buffering=1 << 22) as out:
        header = "timestamp,duration_ms,status,key,pod,request_id,attempt\n"
        out.write(header)
        written += len(header)
        batch = []
        while True:
            t += rng.expovariate(1.0) * gap
            request += 1
            attempt = 0
            at = t
            key = int(rng.paretovariate(1.2)) % 5000
            pod = request % 16
            while True:
                in_outage = outage[0] <= at < outage[1]
                u = rng.random()
                if in_outage and u < 0.6:
                    status, duration = (0, 2.0) if at < (outage[0] + outage[1]) / 2 else (504, 800.0)
                elif u < 0.01:
                    status, duration = 503, rng.uniform(5, 50)
                else:
                    status, duration = 200, rng.lognormvariate(3.2, 0.6)
                line = "%.6f,%.3f,%d,k%d,pod-%d,%d,%d\n" % (
                    start + at, duration, status, key, pod, request, attempt)
                batch.append(line)
                written += len(line)
                calls += 1
                if status == 200 or attempt == 1:
                    break
                attempt += 1
                at += duration / 1000 + 0.05
            if len(batch) >= 10000:
                out.write("".join(batch))
                batch.clear()
            if (args.calls and calls >= args.calls) or (args.bytes and written >= args.bytes):
                break
        out.write("".join(batch))
    print("%s: %d calls, %d requests, %d bytes" % (args.out, calls, request, written),
          file=sys.stderr)


if __name__ == "__main__":
    main()
