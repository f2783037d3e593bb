#include "breakerlab/data/tune_partial.h"

#include "breakerlab/data/tuning_text.h"
#include "json_document.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace breakerlab {

namespace {

// Ordered, so that a partial file lists its keys as written; named apart from report_json.cpp's
// `PartialJson`, with which a unity batch may put this file.
using PartialJson = nlohmann::ordered_json;

// JSON has no infinity: an undefined metric (+inf) is written as the string "inf".
PartialJson number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

PartialJson numbers(const std::vector<double>& values) {
  PartialJson a = PartialJson::array();
  for (const double v : values) a.push_back(number(v));
  return a;
}

PartialJson evaluationJson(const Evaluation& e) {
  return PartialJson{{"feasible", e.feasible},
                     {"stopped_early", e.stopped_early},
                     {"invalid", e.invalid},
                     {"shortfall", number(e.shortfall)},
                     {"objectives", numbers(e.objectives)},
                     {"goals_met", e.goals_met},
                     {"replays", e.replays}};
}

PartialJson tunedJson(const TunedConfig& t) {
  return PartialJson{{"restart", t.restart},
                     {"step", t.step},
                     {"values", numbers(t.values)},
                     {"evaluation", evaluationJson(t.evaluation)}};
}

class PartialReader {
 public:
  PartialReader(std::string_view text, const std::string& file) : file_(file) {
    // Deep nesting is refused before the parse: a "search" 50,000 levels deep parsed, then
    // overflowed the stack when it was dumped.
    // Objects of at most kMaxKeys keys: ordered_json finds a key in a list (n keys, n^2).
    data_detail::prescanJson(text, file, 1, kMaxKeys);
    try {
      root_ = PartialJson::parse(text);
    } catch (const PartialJson::parse_error& e) {
      // nlohmann reports the byte; turn it into line and column.
      std::size_t line = 1, column = 1;
      for (std::size_t i = 0; i < e.byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
          ++line;
          column = 1;
        } else {
          ++column;
        }
      }
      throw LoadError(file, static_cast<int>(line), static_cast<int>(column),
                      "not JSON: expected a partial result written by breakerlab-cli");
    } catch (const PartialJson::exception&) {
      // A number too large for a double (1e999): nlohmann says which, not where.
      throw LoadError(file, 0, 0,
                      "a number out of range: expected a partial result written by "
                      "breakerlab-cli");
    }
    if (!root_.is_object()) fail("expected a JSON object with \"format\"");
  }

  const PartialJson& root() const { return root_; }

  [[noreturn]] void fail(const std::string& message) const {
    throw LoadError(file_, 0, 0, message);
  }

  const PartialJson& field(const PartialJson& object, const char* key, const char* where) const {
    if (!object.is_object()) fail(std::string("expected an object at ") + where);
    const auto it = object.find(key);
    if (it == object.end()) fail(std::string("missing \"") + key + "\" in " + where);
    return *it;
  }

  double toNumber(const PartialJson& v, const char* where) const {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    }
    fail(std::string("expected a number in ") + where);
  }

  std::size_t count(const PartialJson& v, const char* where, std::size_t most) const {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > most)
      fail(std::string("expected a whole number up to ") + std::to_string(most) + " in " + where);
    return static_cast<std::size_t>(v.get<std::uint64_t>());
  }

  bool flag(const PartialJson& v, const char* where) const {
    if (!v.is_boolean()) fail(std::string("expected true or false in ") + where);
    return v.get<bool>();
  }

  // A list, and no longer than kMaxValues: each says which it is not.
  const PartialJson& list(const PartialJson& v, const std::string& what,
                          const std::string& where) const {
    if (!v.is_array()) fail("expected a list of " + what + " in " + where);
    if (v.size() > kMaxValues)
      fail(where + ": " + std::to_string(v.size()) + " entries, more than the " +
           std::to_string(kMaxValues) + " a part holds");
    return v;
  }

  std::vector<double> numberList(const PartialJson& v, const char* where) const {
    list(v, "numbers", where);
    std::vector<double> out;
    for (const PartialJson& x : v) out.push_back(toNumber(x, where));
    return out;
  }

  Evaluation evaluation(const PartialJson& v) const {
    Evaluation e;
    e.feasible = flag(field(v, "feasible", "an evaluation"), "feasible");
    e.stopped_early = flag(field(v, "stopped_early", "an evaluation"), "stopped_early");
    e.invalid = flag(field(v, "invalid", "an evaluation"), "invalid");
    e.shortfall = toNumber(field(v, "shortfall", "an evaluation"), "shortfall");
    e.objectives = numberList(field(v, "objectives", "an evaluation"), "objectives");
    const PartialJson& met =
        list(field(v, "goals_met", "an evaluation"), "true or false", "goals_met");
    for (const PartialJson& g : met) e.goals_met.push_back(flag(g, "goals_met"));
    e.replays = static_cast<std::uint32_t>(
        count(field(v, "replays", "an evaluation"), "replays", UINT32_MAX));
    return e;
  }

  TunedConfig tuned(const PartialJson& v) const {
    TunedConfig t;
    t.restart =
        static_cast<std::uint32_t>(count(field(v, "restart", "a config"), "restart", UINT32_MAX));
    t.step = static_cast<std::uint32_t>(count(field(v, "step", "a config"), "step", UINT32_MAX));
    t.values = numberList(field(v, "values", "a config"), "values");
    t.evaluation = evaluation(field(v, "evaluation", "a config"));
    return t;
  }

  void header(std::string_view format, std::string& search, std::size_t& shard,
              std::size_t& shards) const {
    const PartialJson& f = field(root_, "format", "the file");
    if (!f.is_string() || f.get_ref<const std::string&>() != format)
      fail("expected \"format\": \"" + std::string(format) + "\"");
    const PartialJson& s = field(root_, "search", "the file");
    if (!s.is_object()) fail("expected the search's arguments as an object in \"search\"");
    search = s.dump();
    shards = count(field(root_, "shards", "the file"), "shards", kMaxShards);
    shard = count(field(root_, "shard", "the file"), "shard", kMaxShards);
    if (shards == 0 || shard >= shards) fail("expected 0 <= shard < shards");
  }

  static constexpr std::size_t kMaxValues = 1 << 16;
  // Keys in one object: a part's objects have a dozen.
  static constexpr std::size_t kMaxKeys = 1000;

 private:
  std::string file_;
  PartialJson root_;
};

PartialJson searchObject(const std::string& search) {
  PartialJson s = PartialJson::parse(search, nullptr, false);
  return s.is_discarded() || !s.is_object() ? PartialJson::object() : s;
}

}  // namespace

std::string tunePartialToJson(const TunePartial& partial) {
  PartialJson front = PartialJson::array(), closest = PartialJson::array();
  for (const TunedConfig& t : partial.result.front) front.push_back(tunedJson(t));
  for (const TunedConfig& t : partial.result.closest) closest.push_back(tunedJson(t));
  const TuneStats& s = partial.result.stats;
  PartialJson root{{"format", kTunePartialFormat},
                   {"search", searchObject(partial.search)},
                   {"shard", partial.shard},
                   {"shards", partial.shards},
                   {"restarts", partial.result.restarts},
                   {"cancelled", partial.result.cancelled},
                   {"stats", PartialJson{{"evaluated", s.evaluated},
                                         {"replays", s.replays},
                                         {"gave_up", s.gave_up},
                                         {"restarts", s.restarts}}},
                   {"front", front},
                   {"closest", closest}};
  return root.dump(1) + "\n";
}

std::string sweepPartialToJson(const SweepPartial& partial) {
  PartialJson axes = PartialJson::array(), cells = PartialJson::array();
  for (const auto& axis : partial.result.axes) axes.push_back(numbers(axis));
  for (const SweepCell& c : partial.result.cells)
    cells.push_back(PartialJson{{"index", c.index}, {"evaluation", evaluationJson(c.evaluation)}});
  PartialJson root{{"format", kSweepPartialFormat},
                   {"search", searchObject(partial.search)},
                   {"shard", partial.shard},
                   {"shards", partial.shards},
                   {"cancelled", partial.result.cancelled},
                   {"axes", axes},
                   {"cells", cells}};
  return root.dump(1) + "\n";
}

std::string_view partialFormatOf(std::string_view text, const std::string& file_name) {
  const PartialReader r(text, file_name);
  const PartialJson& f = r.field(r.root(), "format", "the file");
  if (f == kTunePartialFormat) return kTunePartialFormat;
  if (f == kSweepPartialFormat) return kSweepPartialFormat;
  r.fail("expected \"format\": \"" + std::string(kTunePartialFormat) + "\" or \"" +
         std::string(kSweepPartialFormat) + "\"");
}

TunePartial parseTunePartial(std::string_view text, const std::string& file_name) {
  const PartialReader r(text, file_name);
  TunePartial p;
  r.header(kTunePartialFormat, p.search, p.shard, p.shards);
  const PartialJson& root = r.root();
  p.result.restarts = r.count(r.field(root, "restarts", "the file"), "restarts", 1 << 20);
  p.result.cancelled = r.flag(r.field(root, "cancelled", "the file"), "cancelled");
  const PartialJson& stats = r.field(root, "stats", "the file");
  p.result.stats.evaluated = r.count(r.field(stats, "evaluated", "stats"), "evaluated", SIZE_MAX);
  p.result.stats.replays = r.count(r.field(stats, "replays", "stats"), "replays", SIZE_MAX);
  p.result.stats.gave_up = r.count(r.field(stats, "gave_up", "stats"), "gave_up", SIZE_MAX);
  p.result.stats.restarts = r.count(r.field(stats, "restarts", "stats"), "restarts", 1 << 20);
  for (const char* list : {"front", "closest"}) {
    const PartialJson& items = r.list(r.field(root, list, "the file"), "configs", list);
    for (const PartialJson& item : items)
      (list[0] == 'f' ? p.result.front : p.result.closest).push_back(r.tuned(item));
  }
  return p;
}

SweepPartial parseSweepPartial(std::string_view text, const std::string& file_name) {
  const PartialReader r(text, file_name);
  SweepPartial p;
  r.header(kSweepPartialFormat, p.search, p.shard, p.shards);
  const PartialJson& root = r.root();
  p.result.cancelled = r.flag(r.field(root, "cancelled", "the file"), "cancelled");
  const PartialJson& axes = r.field(root, "axes", "the file");
  if (!axes.is_array() || axes.empty() || axes.size() > 2) r.fail("expected one or two axes");
  std::size_t total = 1;
  for (const PartialJson& axis : axes) {
    p.result.axes.push_back(r.numberList(axis, "an axis"));
    if (p.result.axes.back().empty()) r.fail("expected values on every axis");
    total *= p.result.axes.back().size();
  }
  if (total > kMaxSweepCells)
    r.fail("expected at most " + std::to_string(kMaxSweepCells) + " cells in the grid");
  const PartialJson& cells = r.field(root, "cells", "the file");
  if (!cells.is_array() || cells.size() > total) r.fail("expected at most one cell per grid point");
  for (const PartialJson& cell : cells) {
    SweepCell c;
    c.index = r.count(r.field(cell, "index", "a cell"), "index", total - 1);
    c.evaluation = r.evaluation(r.field(cell, "evaluation", "a cell"));
    std::size_t rest = c.index;
    c.values.assign(p.result.axes.size(), 0);
    for (std::size_t d = p.result.axes.size(); d-- > 0;) {
      c.values[d] = p.result.axes[d][rest % p.result.axes[d].size()];
      rest /= p.result.axes[d].size();
    }
    p.result.cells.push_back(std::move(c));
  }
  return p;
}

}  // namespace breakerlab
