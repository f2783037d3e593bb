#pragma once
// The workspace's schema, version by version (docs/workspace.md), and the migrations between.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "workspace/sqlite_db.h"

namespace breakerlab::workspace_detail {

// The tables of schema `version` as created from nothing: tests build every earlier version
// from these to prove the migrations.
std::string_view schemaScript(int version);

// A run's metrics (the report's `metrics` object) as run_metrics rows, null for an absent one.
void insertRunMetrics(Db& db, std::int64_t run_id, const nlohmann::json& metrics);

// Creates the current schema in an empty database.
void createSchema(Db& db);

// Brings a workspace of schema `from` (< kWorkspaceSchemaVersion) to the current one, inside
// the caller's transaction.
void migrate(Db& db, int from);

}  // namespace breakerlab::workspace_detail
