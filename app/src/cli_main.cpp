// breakerlab-cli: replay incidents and breaker policies from the command line.
// Exit codes: 0 all expectations passed, 1 an expectation failed (the incident's calibration on the
// deployed config, a what-if's own checks, an --expect; goals only with --require-goals; for
// `gate`, a regression), 2 bad input or usage (a replay above --max-requests included), 3
// internal error (a bug: no input should give it), 130 a replay stopped with Ctrl+C.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <csignal>
#include <exception>
#include <initializer_list>
#include <iostream>
#include <new>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/output_file.h"
#include "commands.h"
#include "long_replay.h"
#include "sweep_command.h"
#include "tuning_commands.h"

namespace {
using namespace breakerlab::cli;

void addReplay(CLI::App& app, ReplayOptions& o) {
  CLI::App* replay = app.add_subcommand(
      "replay", "Replay an incident with its deployed config, a what-if or your own config");
  replay->add_option("incident", o.incident,
                     "Incident file (breakerlab/1 YAML or JSON), or a bundled incident's name");
  replay->add_option("--config", o.config_file, "Use this breakerlab-config/1 file instead");
  replay->add_option("--library", o.library,
                     "Replay the config's breaker under this library's rules (translated, as "
                     "the workbench's library choice; what cannot be carried over is listed on "
                     "stderr): resilience4j, gobreaker, polly, opossum, cockatiel, envoy or "
                     "breakerlab");
  replay->add_option("--policy", o.policy,
                     "The breaker from a library's own config file (application.yml, a Go file, "
                     "appsettings.json, opossum or cockatiel JSON, Envoy cluster YAML)");
  replay->add_option("--set", o.sets, "Override one config key: dotted.key=value (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  replay->add_option("--whatif", o.what_if,
                     "Use the incident's named what-if, and check its own expect:");
  replay->add_option("--seed", o.seed, "Random seed (0 to 2^64-1) instead of the incident's");
  replay->add_option("--max-requests", o.max_requests,
                     "Refuse replays estimated to simulate more requests (attempts and timer "
                     "events included) than this; default 200000000");
  replay->add_option("--calls-out", o.calls_out,
                     "Write the dependency calls the replay made to this file as a request log "
                     "(CSV, or JSON Lines when it ends in .jsonl), which replays back");
  replay->add_option("--map", o.map,
                     "A request log's columns: FIELD=NAME,... (fields: timestamp, duration, "
                     "status, outcome, key, pod, request_id, attempt, request_start)");
  replay->add_option("--dependency", o.trace_dependency,
                     "Traces: the service whose client spans are the calls (server.address or "
                     "peer.service); default: the one most client spans go to");
  replay
      ->add_option("--expect", o.expects,
                   "Extra expectation \"metric op value [± tol[%]]\" (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  replay->add_flag("--no-changes", o.no_changes,
                   "Replay without the incident's timed changes (what the operators did)");
  replay->add_flag("--no-incident-expect", o.no_incident_expect,
                   "Ignore the expectations and goals written in the incident file");
  replay->add_flag("--require-goals", o.require_goals,
                   "Exit 1 also when a goal of the incident is not met by this config (goals are "
                   "reported but do not set the exit code otherwise)");
  replay->add_flag("--json", o.json, "Print the JSON report instead of text");
  replay->add_flag("--list-metrics", o.list_metrics, "List the metric names and exit");
  replay->add_flag("--list-whatifs", o.list_whatifs, "List the incident's what-ifs and exit");
  replay->add_option("--workspace", o.workspace,
                     "Record this run, and the incident, in a workspace file (*.breakerlab, "
                     "made when missing); `runs` lists them");
  replay->add_option("--save-run", o.save_run, "The run's name in the workspace")
      ->needs("--workspace");
  replay->footer(
      "Checks: the incident's expect: (calibration) is evaluated on the deployed config's\n"
      "replay, whatever config is given; a what-if's own expect: and --expect on this config's\n"
      "replay; the incident's goals: on this config's, beside the deployed config's.\n"
      "Exit codes: 0 every calibration check, what-if check and --expect passed; 1 one failed\n"
      "(or, with --require-goals, a goal is not met); 2 bad input or usage; 3 internal error;\n"
      "130 stopped with Ctrl+C. Goals alone never change the exit code without --require-goals.");
}

void addBreaker(CLI::App& app, BreakerOptions& o) {
  CLI::App* breaker =
      app.add_subcommand("breaker", "Replay a call log (CSV) through one breaker policy");
  breaker->add_option("--library", o.library,
                      "Whose rules: resilience4j, gobreaker, polly, opossum, cockatiel, envoy or "
                      "breakerlab (default: what the policy file is for)");
  breaker
      ->add_option("--policy", o.policy,
                   "The library's own config file (application.yml, a Go file with "
                   "gobreaker.Settings, appsettings.json, opossum or cockatiel JSON, Envoy "
                   "cluster YAML) or a breakerlab-config/1 file")
      ->required();
  breaker->add_option("--calls", o.calls, "Call log: start_s,duration_s,outcome per line")
      ->required();
  breaker->add_flag("--json", o.json, "Print JSON instead of text");
}
void addExport(CLI::App& app, ExportOptions& o) {
  CLI::App* exporter = app.add_subcommand(
      "export",
      "Write a config file in a breaker library's own form, listing what it cannot carry");
  exporter
      ->add_option("--policy", o.policy,
                   "A config in any format BreakerLab reads: breakerlab-config/1, "
                   "application.yml or .properties, a Go file with gobreaker.Settings, "
                   "appsettings.json, opossum or cockatiel JSON, Envoy cluster YAML")
      ->required();
  exporter->add_option("--library", o.library,
                       "Whose form: resilience4j, gobreaker, polly, opossum, cockatiel, envoy or "
                       "breakerlab (BreakerLab YAML); default: the policy's own library");
  exporter->add_option("-o,--output", o.output, "Write the file here (- for standard output)")
      ->required();
  exporter->footer(
      "Everything of the policy the written file does not carry (a section, instance or key "
      "BreakerLab\ndoes not model, a setting the library cannot express) is listed on stderr.\n"
      "Exit codes: 0 written; 2 bad input or usage; 3 internal error.");
}

void addImport(CLI::App& app, ImportCommandOptions& o) {
  CLI::App* import = app.add_subcommand(
      "import",
      "Make an incident file from a postmortem document (or any document replay opens, or a "
      "Prometheus server's range queries with --prometheus), with the import report");
  import->add_option("document", o.document,
                     "A postmortem (Markdown with ```timing/```spec blocks, or text with a UTC "
                     "timeline) or any document `replay` opens");
  import->add_option("-o,--output", o.output,
                     "Write the incident (breakerlab/1 YAML, the report as comments) here "
                     "instead of to stdout; the report then goes to stdout");
  import->add_option("--states", o.states,
                     "A state-name table (breakerlab-states/1 YAML) instead of the defaults");
  import->add_option("--prometheus-metrics", o.prometheus_metrics,
                     "Prometheus: a metric table (breakerlab-prometheus-metrics/1 YAML: which "
                     "series are a breaker's state, how they read, which label names the pod) "
                     "instead of the defaults");
  import->add_option("--map", o.map,
                     "A request log's columns: FIELD=NAME,... (e.g. ts=time,duration=latency_ms)");
  import->add_option("--config", o.config_file,
                     "A request log's deployed config (breakerlab-config/1); default: the "
                     "config defaults");
  import->add_option("--dependency", o.trace_dependency,
                     "Traces: the service whose client spans are the calls (server.address or "
                     "peer.service); default: the one most client spans go to");
  import->add_flag("--no-calibrate", o.no_calibrate,
                   "Keep the state table's shares instead of fitting them to the recorded lane");
  CLI::Option* prometheus =
      import->add_option("--prometheus", o.prometheus,
                         "Instead of a document: run range queries against this Prometheus "
                         "server (http://HOST:9090) and import their answers");
  import->add_option("--from", o.from, "With --prometheus: the range's start, RFC 3339 or unix s")
      ->needs(prometheus);
  import->add_option("--to", o.to, "With --prometheus: the range's end, RFC 3339 or unix s")
      ->needs(prometheus);
  import
      ->add_option("--step", o.step,
                   "With --prometheus: the resolution (15s, 1m, or seconds); default 15s, "
                   "raised to keep within 11,000 points per series")
      ->needs(prometheus);
  import
      ->add_option("--query", o.queries,
                   "With --prometheus: a query, PROMQL or ROLE=PROMQL with ROLE one of "
                   "breaker_state, request_rate, error_ratio, latency_p50, latency_p95, "
                   "latency_p99 (repeatable); default: the breaker-state metrics")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->needs(prometheus);
  import
      ->add_option("--header", o.headers,
                   "With --prometheus: an HTTP header sent with each query, 'Name: value' "
                   "(repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->needs(prometheus);
  import
      ->add_option("--timeout", o.timeout_s,
                   "With --prometheus: seconds each query may take, connecting included "
                   "(default 10)")
      ->needs(prometheus);
  import
      ->add_option("--max-samples", o.max_samples,
                   "With --prometheus: refuse answers of more samples than this in all "
                   "(default 10000000)")
      ->needs(prometheus);
  import
      ->add_option("--max-response-mb", o.max_response_mb,
                   "With --prometheus: refuse an answer longer than this many MiB (default 256)")
      ->needs(prometheus);
  import
      ->add_option("--save-responses", o.save_responses,
                   "With --prometheus: also write the answers under their roles to this file "
                   "(it imports to the same incident)")
      ->needs(prometheus);
}
// The configs come as --config and --whatif in any mix; the report keeps the order given.
struct ReportArguments {
  ReportOptions options;
  std::vector<std::string> config_files;
  std::vector<std::string> what_ifs;
  CLI::App* command = nullptr;
  CLI::Option* config_option = nullptr;
  CLI::Option* what_if_option = nullptr;

  void orderConfigs() {
    std::size_t next_file = 0, next_what_if = 0;
    for (const CLI::Option* option : command->parse_order()) {
      if (option == config_option && next_file < config_files.size())
        options.configs.push_back({ReportOptions::Config::Kind::file, config_files[next_file++]});
      if (option == what_if_option && next_what_if < what_ifs.size())
        options.configs.push_back({ReportOptions::Config::Kind::what_if, what_ifs[next_what_if++]});
    }
  }
};

void addReport(CLI::App& app, ReportArguments& a) {
  a.command = app.add_subcommand(
      "report",
      "Write the incident's report for a postmortem review (HTML or PDF): lanes, config "
      "changes, metrics, checks and goals of the deployed config and the ones given");
  a.command
      ->add_option("incident", a.options.incident,
                   "Incident file, a bundled incident's name, or any document `replay` opens")
      ->required();
  a.config_option =
      a.command->add_option("--config", a.config_files, "A breakerlab-config/1 file (repeatable)")
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  a.what_if_option =
      a.command->add_option("--whatif", a.what_ifs, "One of the incident's what-ifs (repeatable)")
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  a.command->add_option("--library", a.options.library,
                        "Show the config changes and what cannot be expressed in this library's "
                        "terms: resilience4j, gobreaker, polly, opossum, cockatiel, envoy or "
                        "breakerlab (default: the library the configs follow)");
  a.command->add_option("-o,--output", a.options.output, "The report: FILE.html or FILE.pdf")
      ->required();
  a.command->footer(
      "The deployed config comes first, then the configs and what-ifs in the order given.\n"
      "Exit codes: 0 written; 2 bad input or usage (an unknown what-if, an unreadable config,\n"
      "an unwritable or unknown -o); 3 internal error.");
}
void addGate(CLI::App& app, GateOptions& o) {
  CLI::App* gate = app.add_subcommand(
      "gate",
      "Gate a config change: replay incidents under the base and the head config and report "
      "regressions as Markdown for a pull-request comment");
  gate->add_option("--base", o.base,
                   "The config before the change: breakerlab-config/1, application.yml, a Go file "
                   "with gobreaker.Settings, appsettings.json, opossum or cockatiel JSON, Envoy "
                   "cluster YAML")
      ->required();
  gate->add_option("--head", o.head, "The config after the change, in any of those formats")
      ->required();
  gate->add_option("--library", o.library,
                   "The files' library when their contents do not say: resilience4j, gobreaker, "
                   "polly, opossum, cockatiel, envoy or breakerlab");
  gate->add_option("--tolerance", o.tolerances,
                   "METRIC=VALUE (in the metric's unit) or METRIC=VALUE% (of the base value): how "
                   "far the metric may get worse; a metric outside the headline ones joins the "
                   "gate (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  gate->add_option("--markdown", o.markdown, "Also write the Markdown report to this file");
  gate->add_flag("--json", o.json,
                 "Print the report as JSON (format breakerlab-gate/1) instead of Markdown");
  gate->add_option("--max-requests", o.max_requests,
                   "Refuse replays estimated to simulate more requests than this; default "
                   "200000000");
  gate->add_option("incidents", o.incidents,
                   "Incident files, bundled incidents' names, or any document `replay` opens")
      ->required();
  gate->footer(
      "Each file is laid over each incident's deployed config: what it states replaces the\n"
      "incident's, the rest (pods, pools, traffic, ...) stays as the incident had it.\n"
      "A regression is a goal met under base and not under head, or a headline metric worse\n"
      "than its tolerance allows (docs/ci-gate.md lists both).\n"
      "Exit codes: 0 no regression; 1 a regression; 2 bad input or usage; 3 internal error;\n"
      "130 stopped with Ctrl+C.");
}
void addSearchOptions(CLI::App* command, SearchArguments& o) {
  command
      ->add_option("incidents", o.incidents,
                   "Incident files, bundled incidents' names, or any document `replay` opens; "
                   "a config must meet the goals of every one")
      ->required();
  command
      ->add_option("--knob", o.knobs,
                   "KEY=LOW..HIGH[:log] (or KEY for the knob's whole range): a knob to turn, by "
                   "its config key, in its unit or with units (200ms..5s) (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->required();
  command
      ->add_option("--goal", o.goals,
                   "\"METRIC OP VALUE\" every config must meet on every incident, besides the "
                   "incidents' own goals (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_flag("--no-incident-goals", o.no_incident_goals,
                    "Leave out the goals written in the incident files");
  command->add_option("--library", o.library,
                      "Whose breaker the knobs tune and the config is written for: generic, "
                      "resilience4j, gobreaker, polly, opossum, cockatiel or envoy; default: the "
                      "deployed one's");
  command->add_option("--seeds", o.seeds,
                      "Replay every config with this many random seeds (the incident's, then "
                      "derived ones): the goals must hold on each; default 1");
  command->add_option("--shard", o.shard,
                      "I/N: do shard I of N of the work (0 <= I < N), for `merge`");
  command->add_option("--threads", o.threads, "Threads to use; default: every core");
}
void addSweep(CLI::App& app, SweepArguments& o) {
  CLI::App* sweep = app.add_subcommand(
      "sweep", "Map one or two knobs: every cell of a grid replayed, as CSV and as a PNG");
  addSearchOptions(sweep, o.search);
  sweep->add_option("--points", o.points,
                    "Values per knob: N, or N1,N2 for each (fewer where the knob's step has "
                    "fewer in its range); default 25");
  sweep
      ->add_option("--metric", o.metrics,
                   "A metric measured in every cell (repeatable); the PNG colours the first")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->required();
  sweep->add_option("--set", o.sets, "KEY=VALUE laid over every incident's config (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sweep->add_option("--whatif", o.what_if,
                    "Map around this what-if's config instead of the deployed one");
  sweep->add_option("-o,--output", o.output,
                    "The map as CSV: the knobs, each metric, feasible (0/1); a row per cell");
  sweep->add_option("--png", o.png, "The map as the workbench draws it (needs a build with Qt)");
  sweep->add_option("--png-size", o.png_size, "The PNG's WIDTHxHEIGHT; default 1100x820");
  sweep->add_option("--partial", o.partial,
                    "With --shard: write the shard's cells here (JSON), for `merge`");
  sweep->footer(
      "Two knobs make a heatmap of the first metric with the boundary of every goal met and the\n"
      "base config marked; one knob, a line of each of the first two metrics (the CSV has\n"
      "every metric). docs/sensitivity.md.\n"
      "Exit codes: 0 written; 2 bad input or usage; 3 internal error; 130 stopped with Ctrl+C.");
}
void addTune(CLI::App& app, TuneArguments& o) {
  CLI::App* tune = app.add_subcommand(
      "tune", "Search the knobs for the config that meets every goal with the least of a metric");
  addSearchOptions(tune, o.search);
  tune->add_option("--minimize", o.minimize,
                   "The metric to minimise (the mean over incidents and seeds); twice for the "
                   "Pareto front of two")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->required();
  tune->add_option("--budget", o.budget, "Configs to evaluate (over all shards); default 2000");
  tune->add_option("--seed", o.seed, "The search's seed: which points it explores; default 1");
  tune->add_option("--method", o.method,
                   "pattern (default: explore, then refine by pattern search) or random (random "
                   "points, to compare)");
  tune->add_flag("--no-give-up", o.no_give_up,
                 "Replay every config to the end, even once a failed checkout broke a goal");
  tune->add_option("--against", o.against,
                   "Show this what-if of the incident beside the tuned config");
  tune->add_option("-o,--output", o.output,
                   "Write the config here, in the library's format (a Pareto front: FILE-1, "
                   "FILE-2, ...)");
  tune->add_option("--partial", o.partial, "With --shard: write the shard's result here");
  tune->add_flag("--json", o.json, "Print the result as JSON (format breakerlab-tune/1)");
  tune->footer(
      "The search: restarts that each explore a share of a low-discrepancy sequence over the\n"
      "knobs' ranges, then refine their best point by pattern search (docs/tuning.md).\n"
      "Exit codes: 0 a config meets every goal; 1 none does (the closest is shown); 2 bad input\n"
      "or usage; 3 internal error; 130 stopped with Ctrl+C (the best so far is shown).");
}
void addMerge(CLI::App& app, MergeArguments& o) {
  CLI::App* merge = app.add_subcommand(
      "merge",
      "Combine the partial results of a sharded tune or sweep into the result of the whole");
  merge->add_option("parts", o.parts, "The --partial file of every shard")->required();
  merge->add_option("-o,--output", o.output,
                    "A tune's: write the config here, as tune -o does. A sweep's: the map's CSV");
  merge->add_flag("--json", o.json,
                  "A tune's: print the result as JSON (format breakerlab-tune/1)");
  merge->add_option("--png", o.png, "A sweep's: the map as a PNG, as sweep --png");
  merge->add_option("--png-size", o.png_size, "The PNG's WIDTHxHEIGHT; default 1100x820");
  merge->footer(
      "The result is the one the unsharded search or map gives, byte for byte (the incidents\n"
      "must be the same files). Exit codes as tune's or sweep's.");
}
void addRuns(CLI::App& app, RunsOptions& o) {
  CLI::App* runs = app.add_subcommand("runs", "List the runs saved in a workspace, newest first");
  runs->add_option("workspace", o.workspace, "The workspace file (*.breakerlab)")->required();
  runs->add_option("--incident", o.incident,
                   "Only this incident's runs: its id in the workspace or its name");
  runs->add_option("--limit", o.limit, "At most this many runs")->check(CLI::NonNegativeNumber);
  runs->add_flag("--json", o.json, "Print JSON (format breakerlab-runs/1) instead of a table");
}
}  // namespace

namespace {
// Looks at each output path a command was given before any of its work (a directory or a
// socket is refused now, exit 2, not after an hour's search), and returns where the command's
// own text goes: standard output, or standard error when an output is standard output itself
// (`-o -`, `--calls-out /dev/stdout`), so that what is piped on is only the file.
std::ostream& textStreamBeside(std::initializer_list<std::string> outputs) {
  bool stdout_taken = false;
  for (const std::string& path : outputs) {
    if (path.empty()) continue;
    const breakerlab::OutputTarget target = breakerlab::resolveOutputTarget(path);
    stdout_taken = stdout_taken || (target.kind == breakerlab::OutputKind::inheritedDescriptor &&
                                    target.descriptor == STDOUT_FILENO);
  }
  return stdout_taken ? std::cerr : std::cout;
}
}  // namespace

int main(int argc, char** argv) {
  // A reader that goes away (`... -o - | head`) is a write error with its reason ("Broken
  // pipe", exit 2), not a silent death by signal.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"BreakerLab: replay incidents through circuit-breaker, timeout and cache configs"};
  app.name("breakerlab-cli");
  app.set_version_flag("--version", "breakerlab-cli " BREAKERLAB_VERSION);
  app.require_subcommand(1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "breakerlab-cli: " + std::string(e.what()) + "\nRun with --help for more information.\n";
  });
  ReplayOptions replay;
  BreakerOptions breaker;
  ImportCommandOptions import;
  addReplay(app, replay);
  addBreaker(app, breaker);
  addImport(app, import);
  ExportOptions exporter;
  addExport(app, exporter);
  RunsOptions runs;
  addRuns(app, runs);
  ReportArguments report;
  addReport(app, report);
  GateOptions gate;
  addGate(app, gate);
  TuneArguments tune;
  addTune(app, tune);
  MergeArguments merge;
  addMerge(app, merge);
  SweepArguments sweep;
  addSweep(app, sweep);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the error
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (app.got_subcommand("replay"))
      return runReplay(replay, textStreamBeside({replay.calls_out}));
    if (app.got_subcommand("import")) return runImport(import, textStreamBeside({import.output}));
    if (app.got_subcommand("export"))
      return runExport(exporter, textStreamBeside({exporter.output}));
    if (app.got_subcommand("runs")) return runRuns(runs, std::cout);
    if (app.got_subcommand("gate")) return runGate(gate, textStreamBeside({gate.markdown}));
    if (app.got_subcommand("tune"))
      return runTune(tune, textStreamBeside({tune.output, tune.partial}));
    if (app.got_subcommand("merge"))
      return runMerge(merge, textStreamBeside({merge.output, merge.png}));
    if (app.got_subcommand("sweep"))
      return runSweep(sweep, textStreamBeside({sweep.output, sweep.png, sweep.partial}));
    if (app.got_subcommand("report")) {
      report.orderConfigs();
      return runReport(report.options, textStreamBeside({report.options.output}));
    }
    return runBreaker(breaker, std::cout);
  } catch (const breakerlab::LoadError& e) {
    std::cerr << "breakerlab-cli: " << e.what() << '\n';
    return kExitBadInput;
  } catch (const UsageError& e) {
    std::cerr << "breakerlab-cli: " << e.what() << '\n';
    return kExitBadInput;
  } catch (const ReplayInterrupted& e) {
    std::cerr << "breakerlab-cli: " << e.what() << '\n';
    return kExitInterrupted;
  } catch (const std::bad_alloc&) {
    // Inputs are checked against the memory they need before it is allocated
    // (requireMemoryFor); what slips past them is still the input's size, not a bug.
    std::cerr << "breakerlab-cli: out of memory: the input needs more than this machine (or its "
                 "ulimit -v) gives; split it, or raise the limit\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "breakerlab-cli: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
}
