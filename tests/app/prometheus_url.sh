#!/usr/bin/env bash
# `breakerlab-cli import --prometheus URL` end to end, against a real Prometheus started here on
# 127.0.0.1 with its storage backfilled from fleet-0908.om by promtool:
#   the import by URL writes the incident that `import` of the saved answers writes (but for
#   its name), with RFC 3339 or unix-second times; a failed import writes no file at all.
# Exit 77 (skipped) without the prometheus package, unless CI is set.
#   prometheus_url.sh BREAKERLAB_CLI FIXTURES_DIR WORK_DIR
set -u
cli=$(realpath "$1")
fixtures=$(realpath "$2")
work=$3
export no_proxy=127.0.0.1,localhost NO_PROXY=127.0.0.1,localhost

if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
  echo "no prometheus and promtool on PATH (Debian's package prometheus; scripts/setup-debian.sh installs it)"
  if [ -n "${CI:-}" ]; then exit 1; fi
  exit 77
fi

rm -rf "$work"
mkdir -p "$work/data"
cd "$work" || exit 1
promtool tsdb create-blocks-from openmetrics "$fixtures/fleet-0908.om" data >promtool.log 2>&1 ||
  { cat promtool.log; exit 1; }
printf 'global:\n  scrape_interval: 1h\n' >prometheus.yml

pid=""
stop() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
}
trap stop EXIT

# A free port: a few random ones tried until Prometheus listens on one.
url=""
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  prometheus --config.file=prometheus.yml --storage.tsdb.path=data \
    --storage.tsdb.retention.time=100y --web.listen-address="127.0.0.1:$port" \
    >prometheus.log 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    if "$cli" import --prometheus "http://127.0.0.1:$port" --from 1788876000 --to 1788876600 \
         --timeout 1 >/dev/null 2>&1; then
      url="http://127.0.0.1:$port"
      break
    fi
    sleep 0.2
  done
  [ -n "$url" ] && break
  stop
  pid=""
done
if [ -z "$url" ]; then
  echo "prometheus did not start:"
  tail -20 prometheus.log
  exit 1
fi

failures=0
checks=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# The incident without its name (id, title, source, seed) and the report's comments.
body() { grep -v -E '^(#|id:|title:|source:|seed:)' "$1"; }

queries=(
  --query 'breaker_state=resilience4j_circuitbreaker_state{name="pricing"}'
  --query 'request_rate=sum by (instance) (rate(http_client_requests_total{uri="/prices"}[30s]))'
  --query 'error_ratio=sum(rate(http_client_requests_total{uri="/prices",outcome="SERVER_ERROR"}[30s])) / sum(rate(http_client_requests_total{uri="/prices"}[30s]))'
  --query 'latency_p50=max(pricing_latency_p50_seconds)'
  --query 'latency_p99=max(pricing_latency_p99_seconds)'
)

# 1. By URL, the answers saved beside the incident.
checks=$((checks + 1))
"$cli" import --prometheus "$url" --from 2026-09-08T14:00:00Z --to 2026-09-08T14:10:00Z \
  --step 10s "${queries[@]}" -o by-url.yaml --save-responses answers.json >out.txt 2>err.txt
code=$?
if [ $code -ne 0 ]; then
  fail "import by URL exited $code: $(cat err.txt)"
elif ! grep -q "query breaker_state: 'resilience4j_circuitbreaker_state{name=\"pricing\"}': 9 series, 549 samples" out.txt ||
     ! grep -q "^wrote by-url.yaml" out.txt || ! grep -q "^wrote answers.json" out.txt; then
  fail "import by URL: the report does not say what was asked and written: $(cat out.txt)"
fi

# 2. The saved answers, and the answers saved with curl (the fixture), import to that incident.
for saved in answers.json "$fixtures/fleet-0908-answers.json"; do
  checks=$((checks + 1))
  if ! "$cli" import "$saved" -o from-file.yaml >/dev/null 2>err.txt; then
    fail "import $saved: $(cat err.txt)"
  elif ! diff <(body by-url.yaml) <(body from-file.yaml) >diff.txt; then
    fail "import by URL and import of $saved differ: $(head -20 diff.txt)"
  fi
done

# 3. Unix seconds and an RFC 3339 offset give the same incident, to stdout.
checks=$((checks + 1))
"$cli" import --prometheus "$url/" --from 1788876000 --to 2026-09-08T16:10:00+02:00 --step 10 \
  "${queries[@]}" >stdout.yaml 2>err.txt || fail "unix seconds: $(cat err.txt)"
if ! diff <(body by-url.yaml) <(body stdout.yaml) >diff.txt; then
  fail "unix seconds and RFC 3339 differ: $(head -20 diff.txt)"
fi

# 4. The answers to standard output beside -o, and through a symlink (its target written, the
#    link kept).
checks=$((checks + 1))
"$cli" import --prometheus "$url" --from 1788876000 --to 1788876600 --step 10 "${queries[@]}" \
  -o linked.yaml --save-responses - >dash.txt 2>err.txt || fail "--save-responses -: $(cat err.txt)"
grep -q '"breaker_state": {"status":"success"' dash.txt ||
  fail "--save-responses - did not print the answers: $(head -c 300 dash.txt)"
checks=$((checks + 1))
echo old >target.json
ln -sf target.json link.json
"$cli" import --prometheus "$url" --from 1788876000 --to 1788876600 --step 10 "${queries[@]}" \
  -o linked.yaml --save-responses link.json >/dev/null 2>err.txt || fail "symlink: $(cat err.txt)"
if [ ! -L link.json ] || ! cmp -s target.json answers.json; then
  fail "--save-responses through a symlink: the link replaced, or the target not the answers"
fi

# 5. Each failure: exit 2, the cause on stderr, and neither file written.
expect_failure() {  # NAME STDERR_REGEX ARGS...
  local name=$1 regex=$2
  shift 2
  checks=$((checks + 1))
  rm -f failed.yaml failed.json
  "$cli" import "$@" -o failed.yaml --save-responses failed.json >out.txt 2>err.txt
  local code=$?
  if [ $code -ne 2 ]; then
    fail "$name: exit $code, expected 2: $(cat err.txt)"
  elif ! grep -q -E -e "$regex" err.txt; then
    fail "$name: stderr does not match '$regex': $(cat err.txt)"
  elif [ -e failed.yaml ] || [ -e failed.json ]; then
    fail "$name: a file was written"
  fi
}
range=(--from 2026-09-08T14:00:00Z --to 2026-09-08T14:10:00Z)
expect_failure "bad query" \
  "query_range: query request_rate 'sum\(rate\(x\[30s\]\)': Prometheus refused it \(HTTP 400, bad_data\): .*parse error" \
  --prometheus "$url" "${range[@]}" --query 'breaker_state=resilience4j_circuitbreaker_state' \
  --query 'request_rate=sum(rate(x[30s])'
expect_failure "matches nothing" \
  "query 'resilience4j_circuitbreaker_state\{name=\"payments\"\}': matched no series" \
  --prometheus "$url" "${range[@]}" --query 'resilience4j_circuitbreaker_state{name="payments"}'
expect_failure "too many samples" "549 samples in 9 series, more than the limit of 100 \(--max-samples\)" \
  --prometheus "$url" "${range[@]}" --step 10 --query 'resilience4j_circuitbreaker_state' \
  --max-samples 100
expect_failure "too large" "the answer is larger than 1048 bytes \(--max-response-mb\)" \
  --prometheus "$url" "${range[@]}" --max-response-mb 0.001
expect_failure "not the API" "HTTP 404.*give the server's address" \
  --prometheus "$url/graph" "${range[@]}"
expect_failure "refused" "could not connect \(is Prometheus running there\?\)" \
  --prometheus "http://127.0.0.1:1" "${range[@]}"
expect_failure "not a URL" "--prometheus: \"127.0.0.1:9090\" is not the URL of a Prometheus server" \
  --prometheus "127.0.0.1:9090" "${range[@]}"
expect_failure "a document too" "give a document or --prometheus URL, not both" \
  "$fixtures/fleet-0908-answers.json" --prometheus "$url" "${range[@]}"
expect_failure "no --to" "--prometheus needs --from and --to" --prometheus "$url" --from 1788876000
expect_failure "bad time" "--from: expected RFC 3339" --prometheus "$url" --from noon --to 1788876600
checks=$((checks + 1))
"$cli" import --prometheus "$url" --from 1788876000 --to 1788876600 --save-responses - \
  >out.txt 2>err.txt
code=$?
if [ $code -ne 2 ] || ! grep -q "the incident goes to standard output" err.txt; then
  fail "--save-responses - without -o: exit $code: $(cat err.txt)"
fi

echo "$checks checks, $failures failures"
[ $failures -eq 0 ]
