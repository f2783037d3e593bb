#pragma once
// The workspace's schema, version by version (docs/workspace.md), and the migrations between.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "workspace/sqlite_db.h"

namespace breakerlab::workspace_detail {

// The tables of schema `version` as created from nothing: tests build every earlier version
// from these to prove the migrations.
std::string_view schemaScript(int version);

// A run's metrics (the report's `metrics` object) as run_metrics rows, null for an absent one.
void insertRunMetrics(Db& db, std::int64_t run_id, const nlohmann::json& metrics);

// The schema version whose tables `db` holds: every table of that version, each with exactly
// its columns (tables of the user's own are allowed). 0 when it holds no version's tables;
// then `difference` says how its tables differ from those of `claimed` ("it has no table
// run_checks").
int schemaOfTables(Db& db, int claimed, std::string& difference);

// The first CHECK constraint of schema `version` that a row of `db` breaks, said as
// integrity_check says it ("CHECK constraint failed in run_checks"), or empty. integrity_check
// checks them only on a connection that can write: SQLite does not parse the CHECK constraints
// of a database it opened read-only, so a read-only workspace is asked for them here.
std::string brokenCheckConstraint(Db& db, int version);

// Creates the current schema in an empty database.
void createSchema(Db& db);

// Brings a workspace of schema `from` (< kWorkspaceSchemaVersion) to the current one, inside
// the caller's transaction.
void migrate(Db& db, int from);

}  // namespace breakerlab::workspace_detail
