#pragma once
// What File ▸ Import from Prometheus needs before it can ask the server: its URL and the range.
// Until the fields give them, Preview and Import stay off and the dialog says what is missing or
// what is wrong with the URL (issue #33: example values in the fields read as filled ones).
#include <QString>

namespace breakerlab::app {

// The first thing missing or wrong, as the dialog says it: a required field left empty, a URL
// that is not a Prometheus server's ("Server URL: ..."), a time that does not read ("From: ...").
// Empty when the fields can be asked.
QString prometheusFieldsProblem(const QString& url, const QString& from, const QString& to);

}  // namespace breakerlab::app
