#pragma once
// What an import made of a document: every value it recognised (with the line it came from),
// what it assumed and why, what the document lacks, and what calibration fitted.
#include <string>
#include <vector>

namespace breakerlab {

struct ImportFinding {
  enum class Kind { recognised, assumed, missing, calibrated, note } kind = Kind::note;
  int line = 0;        // in the source document; 0 when it has no single line
  std::string what;    // the setting or part: "timeout.attempt", "dependency segments"
  std::string detail;  // the value and why: "800ms, from \"800 ms per call\""
};

struct ImportReport {
  std::string source;  // the document's file name
  std::string format;  // "postmortem (Markdown with fenced blocks)", "request log (CSV)", ...
  std::vector<ImportFinding> findings;

  void add(ImportFinding::Kind kind, int line, std::string what, std::string detail) {
    findings.push_back({kind, line, std::move(what), std::move(detail)});
  }
  std::size_t count(ImportFinding::Kind kind) const {
    std::size_t n = 0;
    for (const auto& f : findings) n += f.kind == kind ? 1 : 0;
    return n;
  }
  // One line per finding, grouped by kind: "recognised  line 87  timeout.attempt: 800ms ...".
  std::vector<std::string> lines() const;
};

std::string_view toString(ImportFinding::Kind kind);

}  // namespace breakerlab
