#pragma once
// How a run's inputs are written in the workspace: the config as breakerlab-config/1, the timed
// changes as JSON (exact: integer microseconds, doubles that read back bit for bit).
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/data/content_hash.h"

namespace breakerlab::workspace_detail {

std::string changesToJson(const std::vector<TimedChange>& changes);
// Throws WorkspaceError (corrupt) when `text` is not what changesToJson writes.
std::vector<TimedChange> changesFromJson(std::string_view text, std::string_view where);

// "2026-12-02T04:31:07.123Z": now, UTC, to the millisecond.
std::string utcNow();

}  // namespace breakerlab::workspace_detail
