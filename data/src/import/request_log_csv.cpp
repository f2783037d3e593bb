// Request logs in CSV: the header names the columns; each line is one call.
#include <algorithm>

#include "request_log_parsers.h"
#include "utf8.h"

namespace breakerlab::data_detail {

namespace {
std::string_view trimCsvField(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return s.substr(b, e - b);
}

bool sameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

constexpr std::size_t kMaxColumns = 256;
}  // namespace

CsvRowParser::CsvRowParser(std::string file, const RequestLogMapping& mapping, RowCollector& rows)
    : file_(std::move(file)), mapping_(mapping), rows_(rows) {
  std::fill(std::begin(field_column_), std::end(field_column_), -1);
  cells_.reserve(16);
}

// Splits into cells_; quoted cells are unescaped into unquoted_ (reserved to the line's size
// first, so the views into it stay valid).
std::size_t CsvRowParser::split(std::string_view line, int number) {
  cells_.clear();
  unquoted_.clear();
  if (line.find('"') != std::string_view::npos) unquoted_.reserve(line.size());
  std::size_t i = 0;
  for (;;) {
    std::size_t b = i;
    while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
    if (b < line.size() && line[b] == '"') {
      const std::size_t begin = unquoted_.size();
      std::size_t j = b + 1;
      for (;;) {
        if (j >= line.size())
          throw LoadError(file_, number, static_cast<int>(b) + 1,
                          "a quoted field is not closed on its line (fields cannot span lines)");
        if (line[j] == '"') {
          if (j + 1 < line.size() && line[j + 1] == '"') {
            unquoted_ += '"';
            j += 2;
            continue;
          }
          break;
        }
        unquoted_ += line[j++];
      }
      ++j;
      while (j < line.size() && (line[j] == ' ' || line[j] == '\t' || line[j] == '\r')) ++j;
      if (j < line.size() && line[j] != ',')
        throw LoadError(file_, number, static_cast<int>(j) + 1,
                        "expected a comma after the closing quote");
      cells_.push_back({std::string_view(unquoted_).substr(begin), static_cast<int>(b) + 1});
      i = j;
    } else {
      const std::size_t comma = line.find(',', i);
      const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
      cells_.push_back({trimCsvField(line.substr(i, end - i)), static_cast<int>(b) + 1});
      i = end;
    }
    if (cells_.size() > kMaxColumns)
      throw LoadError(file_, number, static_cast<int>(i) + 1,
                      "more than " + std::to_string(kMaxColumns) + " columns");
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return cells_.size();
}

void CsvRowParser::readHeader(std::string_view line, int number) {
  requireUtf8(line, file_, number);
  columns_ = split(line, number);
  column_field_.assign(columns_, -1);
  // Named by the mapping first, then by the usual names (the first column that fits).
  for (int f = 0; f < kRequestLogFieldCount; ++f) {
    const std::string& wanted = mapping_.names[f];
    if (wanted.empty()) continue;
    for (std::size_t c = 0; c < columns_; ++c) {
      if (column_field_[c] < 0 && sameName(cells_[c].text, wanted)) {
        column_field_[c] = f;
        field_column_[f] = static_cast<int>(c);
        break;
      }
    }
    if (field_column_[f] < 0) {
      std::string names;
      for (std::size_t c = 0; c < columns_ && names.size() < 200; ++c)
        names += (c ? ", " : "") + std::string(cells_[c].text);
      throw LoadError(file_, number, 1,
                      "the mapping names column \"" + clipText(wanted) + "\" for " +
                          std::string(toString(static_cast<RequestLogField>(f))) +
                          ", but the header has " + clipText(names));
    }
    rows_.columns[f] = wanted;
  }
  for (std::size_t c = 0; c < columns_; ++c) {
    if (column_field_[c] >= 0) continue;
    std::string unit;
    const auto f = fieldForName(cells_[c].text, &unit);
    if (!f || field_column_[static_cast<int>(*f)] >= 0) continue;
    column_field_[c] = static_cast<int>(*f);
    field_column_[static_cast<int>(*f)] = static_cast<int>(c);
    rows_.columns[static_cast<int>(*f)] = std::string(cells_[c].text);
  }
  // A column read for a field named again: the first would be read and the second ignored,
  // silently. (Other repeated names are not read, and Excel repeats empty ones.)
  for (std::size_t c = 1; c < columns_; ++c)
    for (std::size_t d = 0; d < c; ++d)
      if (column_field_[d] >= 0 && sameName(cells_[c].text, cells_[d].text))
        throw LoadError(file_, number, cells_[c].column,
                        "the column \"" + clipText(cells_[c].text) +
                            "\" appears twice in the "
                            "header (columns " +
                            std::to_string(d + 1) + " and " + std::to_string(c + 1) + ")");
  const auto missing = [&](RequestLogField f) { return field_column_[static_cast<int>(f)] < 0; };
  std::string lacking;
  if (missing(RequestLogField::timestamp))
    lacking = "a timestamp (timestamp, ts, time, start_s...)";
  else if (missing(RequestLogField::duration))
    lacking = "a duration (duration_ms, latency_ms, elapsed...)";
  else if (missing(RequestLogField::status) && missing(RequestLogField::outcome))
    lacking = "a status or outcome (status, status_code, outcome, result...)";
  if (!lacking.empty())
    throw LoadError(file_, number, 1,
                    "the header \"" + clipText(line) + "\" has no column for " + lacking +
                        "; name it with --map (e.g. --map ts=when,duration=took_ms)");
  const std::string& ts_name = rows_.columns[static_cast<int>(RequestLogField::timestamp)];
  rows_.timestamp_unit = unitSuffix(ts_name);
  std::string unit;
  const std::string& duration_name = rows_.columns[static_cast<int>(RequestLogField::duration)];
  if (fieldForName(duration_name, &unit) && !unit.empty()) {
    rows_.duration_unit = unit;
  } else if (!unitSuffix(duration_name).empty()) {
    rows_.duration_unit = unitSuffix(duration_name);
  }
  header_done_ = true;
}

bool CsvRowParser::parseLine(std::string_view line, int number, RowFields& out) {
  const std::string_view content = trimCsvField(line);
  if (content.empty() || content.front() == '#') return false;
  if (!header_done_) {
    readHeader(line, number);
    return false;
  }
  for (char c : line)
    if (static_cast<unsigned char>(c) >= 0x80) {
      requireUtf8(line, file_, number);
      break;
    }
  const std::size_t count = split(line, number);
  if (count != columns_)
    throw LoadError(file_, number,
                    count > columns_ ? cells_[columns_].column : static_cast<int>(line.size()) + 1,
                    "expected " + std::to_string(columns_) + " fields as in the header, got " +
                        std::to_string(count));
  out.clear();
  for (int f = 0; f < kRequestLogFieldCount; ++f) {
    const int c = field_column_[f];
    if (c < 0) continue;
    out.present[f] = true;
    out.value[f] = cells_[static_cast<std::size_t>(c)].text;
    out.column[f] = cells_[static_cast<std::size_t>(c)].column;
  }
  return true;
}

}  // namespace breakerlab::data_detail
