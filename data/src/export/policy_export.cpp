// A config file in another (or its own) library's form, with what it does not carry listed.
#include "breakerlab/data/policy_export.h"

#include <algorithm>
#include <string_view>

#include "breakerlab/core/inputs/library_translation.h"
#include "export_common.h"

namespace breakerlab {

namespace {

// Nothing around the breaker is in effect, so the export lists only what the source states.
Config quietBase() {
  Config c;
  c.cache.enabled = false;
  return c;
}

std::string nameAsRead(const Config& c) {
  switch (c.breaker.library) {
    case BreakerLibrary::resilience4j:
      return c.native.resilience4j.name;
    case BreakerLibrary::gobreaker:
      return c.native.gobreaker.name;
    case BreakerLibrary::opossum:
      return c.native.opossum.name;
    case BreakerLibrary::polly: {
      // "Resilience:Pricing": the innermost section names the breaker.
      const std::string& section = c.native.polly.name;
      return section.substr(section.rfind(':') == std::string::npos ? 0 : section.rfind(':') + 1);
    }
    case BreakerLibrary::envoy:
      return c.native.envoy.name;
    default:
      return {};
  }
}

// Whether the source states how long an attempt may take; if not, the base config's
// timeout.attempt is not the source's and its absence from the export is no loss.
bool statesAttemptTimeout(const ConfigFile& source, BreakerLibrary target) {
  if (source.breakerlab_format) return true;
  if (source.native.calls.attempt_timeout) return true;
  // opossum's own timeout is written back as itself; into another library it becomes
  // timeout.attempt (translateToLibrary), which that library may not carry.
  return source.native.library == BreakerLibrary::opossum && target != BreakerLibrary::opossum &&
         source.native.native.opossum.timeout > 0;
}

struct SourceComment {
  int line;
  std::string text;  // without its marker
};

// Whole-line comments: '#' (YAML, properties, also '!'), '//' (Go).
std::vector<SourceComment> commentsOf(std::string_view text) {
  std::vector<SourceComment> out;
  int line = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view l =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line;
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.remove_suffix(1);
    const std::size_t b = l.find_first_not_of(" \t");
    if (b == std::string_view::npos) continue;
    l.remove_prefix(b);
    std::size_t marker = 0;
    if (l.substr(0, 2) == "//")
      marker = 2;
    else if (l.front() == '#' || l.front() == '!')
      marker = 1;
    else
      continue;
    std::string_view body = l.substr(marker);
    if (!body.empty() && body.front() == ' ') body.remove_prefix(1);
    out.push_back({line, std::string(body)});
  }
  return out;
}

std::string_view commentMarker(ExportTarget target) {
  switch (target) {
    case ExportTarget::gobreaker:
      return "//";
    case ExportTarget::polly:
    case ExportTarget::opossum:
    case ExportTarget::cockatiel:
      return "";  // JSON has no comments
    default:
      return "#";
  }
}

constexpr std::string_view kKeptHeading = "Comments of the source file, kept as written:";

}  // namespace

PolicyExport exportPolicy(const ConfigFile& source, std::string_view source_text,
                          std::optional<BreakerLibrary> library) {
  PolicyExport out;
  Config config = applyConfigFile(source, quietBase());
  for (const ImportNote& note : source.native.notes)
    out.not_carried.push_back(formatNote(source.file, note));

  const BreakerLibrary from = config.breaker.library;
  const BreakerLibrary to = library.value_or(from);
  out.target = exportTargetOf(to);
  std::string name = nameAsRead(config);
  if (name.empty()) name = "pricing";
  // exportConfig translates the generic machine into any library itself, with its own list; a
  // library's breaker first becomes the generic machine.
  if (from != to && from != BreakerLibrary::breakerlab) {
    LibraryTranslation generic = translateToLibrary(config, BreakerLibrary::breakerlab);
    for (const NotCarriedOver& item : generic.not_carried)
      out.not_carried.push_back(item.setting + ": " + item.why);
    config = std::move(generic.config);
  }
  ExportedConfig exported = exportConfig(config, out.target, name);
  const bool timeout_stated = statesAttemptTimeout(source, to);
  for (std::string& item : exported.not_expressible)
    if (timeout_stated || item.rfind("per-call timeout ", 0) != 0)
      out.not_carried.push_back(std::move(item));
  out.text = std::move(exported.text);

  // The source's comments may hold values ("the last 20 calls, open 20 s"): kept, unless the
  // export writes the same line itself (its header and notes, on a file it wrote before).
  const std::string_view marker = commentMarker(out.target);
  std::string kept;
  for (const SourceComment& comment : commentsOf(source_text)) {
    if (comment.text == kKeptHeading) continue;
    if (!marker.empty() &&
        out.text.find(std::string(marker) + " " + comment.text + "\n") != std::string::npos)
      continue;
    if (marker.empty()) {
      out.not_carried.push_back(source.file + ":" + std::to_string(comment.line) +
                                ": comment not carried (JSON has none): " + comment.text);
      continue;
    }
    kept += std::string(marker) + (comment.text.empty() ? "" : " ") + comment.text + "\n";
  }
  if (!kept.empty())
    out.text += "\n" + std::string(marker) + " " + std::string(kKeptHeading) + "\n" + kept;
  return out;
}

}  // namespace breakerlab
