#pragma once
// The subcommands of breakerlab-cli. Each returns the process exit code; bad input is thrown
// as breakerlab::LoadError (or UsageError) and turned into exit code 2 by main().
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/data/config_file.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/workspace.h"

namespace breakerlab::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitExpectationFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;
// Ctrl+C stopped a long replay: 128 + SIGINT, as a shell reports a process SIGINT ended.
inline constexpr int kExitInterrupted = 130;

// A command line that parses but does not make sense (e.g. an unknown what-if name).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReplayOptions {
  std::string incident;
  std::string config_file;
  std::string library;  // whose breaker rules; with --policy, the native file's library
  std::string policy;   // a library's own config file for the breaker
  std::vector<std::string> sets;
  std::string what_if;
  std::string seed;              // empty: the incident's
  std::string max_requests;      // empty: kDefaultMaxSimulatedRequests
  std::string calls_out;         // write the replay's dependency calls here as a request log
  std::string map;               // a request log's column mapping: "ts=time,duration=latency_ms"
  std::string trace_dependency;  // traces: whose client spans are the calls
  std::vector<std::string> expects;
  bool no_incident_expect = false;
  bool require_goals = false;  // exit 1 when a goal is not met
  bool no_changes = false;
  bool json = false;
  bool list_metrics = false;
  bool list_whatifs = false;
  std::string workspace;  // record the run (and the incident) in this workspace
  std::string save_run;   // the run's name there
};

struct RunsOptions {
  std::string workspace;
  std::string incident;  // an incident's id in the workspace, or (part of) its name
  int limit = 0;
  bool json = false;
};

struct BreakerOptions {
  std::string library;  // empty: the policy file says (breakerlab-config/1) or is detected
  std::string policy;
  std::string calls;
  bool json = false;
};

struct ImportCommandOptions {
  std::string document;
  std::string output;              // empty: the incident to stdout
  std::string states;              // a breakerlab-states/1 table instead of the defaults
  std::string prometheus_metrics;  // a breakerlab-prometheus-metrics/1 table instead
  std::string map;                 // a request log's column mapping
  std::string trace_dependency;    // traces: whose client spans are the calls
  std::string config_file;         // a request log's deployed config (default: the config defaults)
  bool no_calibrate = false;
  // --prometheus URL instead of a document: range queries against a Prometheus server.
  std::string prometheus;
  std::string from, to, step;        // RFC 3339 or unix seconds; a step "15s" or seconds
  std::vector<std::string> queries;  // "PROMQL" or "ROLE=PROMQL"; none: the breaker states
  std::vector<std::string> headers;  // "Name: value"
  double timeout_s = 10;             // each query's whole exchange
  std::size_t max_samples = 0;       // 0: kPrometheusDefaultMaxSamples
  double max_response_mb = 0;        // 0: kPrometheusDefaultMaxResponseBytes
  std::string save_responses;        // the answers as one file that imports the same
};

// `report`: the configs after the deployed one, in the order given.
struct ReportOptions {
  struct Config {
    enum class Kind { file, what_if } kind = Kind::file;
    std::string name;  // the config file, or the what-if's name
  };
  std::string incident;
  std::vector<Config> configs;
  std::string library;  // whose terms the config diff uses; empty: the configs' own
  std::string output;   // .html or .pdf
};

// `gate`: the incidents replayed under a base and a head config (docs/ci-gate.md).
struct GateOptions {
  std::string base;  // any config file BreakerLab reads
  std::string head;
  std::string library;                  // the files' library, when their contents do not say
  std::vector<std::string> tolerances;  // METRIC=VALUE or METRIC=VALUE%
  std::string markdown;                 // also write the Markdown report here
  std::string max_requests;             // empty: kDefaultMaxSimulatedRequests
  bool json = false;
  std::vector<std::string> incidents;  // files or bundled incidents' names
};

int runReplay(const ReplayOptions& options, std::ostream& out);
// Exit kExitOk without a regression, kExitExpectationFailed with one.
int runGate(const GateOptions& options, std::ostream& out);
int runRuns(const RunsOptions& options, std::ostream& out);
int runImport(const ImportCommandOptions& options, std::ostream& out);
int runBreaker(const BreakerOptions& options, std::ostream& out);

struct ExportOptions {
  std::string policy;   // a config file of any format BreakerLab reads
  std::string library;  // empty: the policy's own library
  std::string output;
};
// `breakerlab-cli export`: the policy in the library's form, written to `output`; what it does
// not carry on stderr, one "not carried:" line each; a summary line on `out`.
int runExport(const ExportOptions& options, std::ostream& out);
// Needs a build with Qt (BREAKERLAB_BUILD_GUI); without it, throws UsageError saying so.
int runReport(const ReportOptions& options, std::ostream& out);

// A breaker policy: a breakerlab-config/1 file, or a library's native config (its import notes
// go to stderr). `library_name` empty: whatever the file is for.
Config loadPolicy(const std::string& policy, const std::string& library_name);
// --library NAME: nullopt when empty; an unknown name is a UsageError listing the libraries.
std::optional<BreakerLibrary> libraryOption(const std::string& library_name);
// A native file's import notes, "breakerlab-cli: note: FILE:LINE:COL: ..." on stderr.
void printImportNotes(const ConfigFile& file);

// `replay --list-metrics` and `replay --list-whatifs INCIDENT`.
int listMetrics(std::ostream& out);
int listWhatIfs(const std::filesystem::path& incident, std::ostream& out);

// Saves the replay as a run in the workspace file (made when missing), with `opened`, the
// incident as read from `document`, added to it; returns the run's id. Workspace errors are
// thrown as UsageError.
std::int64_t recordRun(const std::string& workspace_file, const std::string& run_name,
                       const ImportedIncident& opened, const std::filesystem::path& document,
                       const RunInputs& inputs, const Incident& replayed, const Result& result,
                       const Checks& checks);

// "early-probe, short-ttl" (or "(none)"): what an unknown --whatif is told to pick from.
std::string whatIfNames(const Incident& incident);

// An incident argument: the path itself, or a bundled incident's name ("inc-2026-0908-pricing").
std::filesystem::path resolveIncident(const std::string& argument);

}  // namespace breakerlab::cli
