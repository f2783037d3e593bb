#pragma once
// Internal to the request-log reader: a line of CSV or of JSON Lines into the fields of a row.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "request_log_rows.h"

namespace breakerlab::data_detail {

// CSV with a header line naming the columns (RFC 4180 quoting, no line breaks inside quotes).
class CsvRowParser {
 public:
  CsvRowParser(std::string file, const RequestLogMapping& mapping, RowCollector& rows);
  // One line without its '\n'; false when it held no row (the header, blank, '#' comment).
  bool parseLine(std::string_view line, int number, RowFields& out);
  bool sawHeader() const { return header_done_; }
  // Whether the header has these columns (for reserving the collector's optional columns).
  bool has(RequestLogField f) const { return field_column_[static_cast<int>(f)] >= 0; }

 private:
  void readHeader(std::string_view line, int number);
  std::size_t split(std::string_view line, int number);

  std::string file_;
  RequestLogMapping mapping_;
  RowCollector& rows_;
  bool header_done_ = false;
  std::vector<int> column_field_;  // per column: the field index, or -1
  int field_column_[kRequestLogFieldCount];
  std::size_t columns_ = 0;
  struct Cell {
    std::string_view text;
    int column;
  };
  std::vector<Cell> cells_;
  std::string unquoted_;  // storage for cells that had quotes
};

// JSON Lines: one object a line; nested objects' keys are joined with dots ("http.status").
class JsonlRowParser {
 public:
  JsonlRowParser(std::string file, const RequestLogMapping& mapping, RowCollector& rows);
  ~JsonlRowParser();
  bool parseLine(std::string_view line, int number, RowFields& out);

  struct Handler;

 private:
  std::string file_;
  std::unique_ptr<Handler> handler_;
};

}  // namespace breakerlab::data_detail
