#pragma once
// Internal: the incident id a postmortem states, in the phrasings documents use: "Incident:
// INC-2026-0912", "| Incident ID | INC-2026-0912 |", "Incident INC-2026-0912", the label and the
// value on lines of their own as a document editor exports a definition list ("- Incident" then
// "- INC-2026-0912"), or an id alone in a title ("INC-2026-0908 · Pricing failover").
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace breakerlab::data_detail {

// An id longer than this is not one: the longest real ones ("INC-2026-0908", "SEV1-PAY-0412")
// are a fraction of it, and it names the workspace's row and the saved file.
inline constexpr std::size_t kMaxIncidentIdChars = 80;
// How far down a document its id is looked for: the header, not the prose ("Incident declared
// SEV-2" in a timeline is not the document's id).
inline constexpr int kIncidentIdHeaderLines = 60;

struct DocumentLine {
  std::string_view text;
  int line = 0;  // 1-based
};

struct StatedIncidentId {
  std::string id;
  int line = 0;        // of the id itself
  int label_line = 0;  // of its label ("Incident"), the same line unless it stands alone
};

// A document id such as INC-2026-0908 anywhere in `text` (a title): capitals, a dash, and
// letters, digits and dashes with at least one digit.
std::string incidentIdInTitle(std::string_view text);

// The id the lines state under a label (the first of the header's lines that does), or nullopt.
std::optional<StatedIncidentId> statedIncidentId(const std::vector<DocumentLine>& lines);

// Whether `text`, without bullets, table bars and a trailing colon, is a label of the document's
// header ("Incident", "Status", "Authors", "Reviewed", ...): a label and the line after it (its
// value) are never the document's title.
bool isHeaderLabel(std::string_view text);

}  // namespace breakerlab::data_detail
