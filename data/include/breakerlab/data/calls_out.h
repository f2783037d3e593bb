#pragma once
// `breakerlab-cli replay --calls-out FILE`: the dependency calls a replay made, written as a
// request log (docs/formats.md, "Request logs") that reads back into the same replay.
#include <cstdint>
#include <filesystem>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/request_log.h"

namespace breakerlab {

// The wall-clock time of the incident's t = 0 in the log: 2026-01-01T00:00:00Z (incidents have
// no date of their own), in microseconds since the epoch.
inline constexpr std::int64_t kCallsOutEpoch = 1'767'225'600'000'000;

// One line per call, sorted by start; one `rejected` line for each attempt a breaker rejected
// (so each pod's breaker can be read back from the log: pod_breaker_inference.h); and one
// `not_sent` line for each checkout that made no call otherwise (no worker or pod, served from
// the cache), so the log holds every arrival. Columns: timestamp (ISO 8601, microseconds),
// duration_ms, outcome, key, pod, request_id, attempt, request_start. Written as every output is
// (OutputFile: a regular file atomically, a device, FIFO or - through). Throws LoadError naming
// the path and the OS reason.
void writeCallsOut(const std::filesystem::path& path, RequestLogFormat format, const Result& result,
                   const CallTrace& trace);

// CSV unless the name ends in .jsonl or .ndjson.
RequestLogFormat callsOutFormatFor(const std::filesystem::path& path);

}  // namespace breakerlab
