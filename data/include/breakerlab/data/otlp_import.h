#pragma once
// OpenTelemetry traces into an incident: OTLP JSON as the collector's file exporter writes it
// (one ExportTraceServiceRequest a line, or one document): `resourceSpans` / `scopeSpans` /
// `spans`. Client spans to the chosen dependency (by `server.address`, `peer.service`,
// `net.peer.name`) become the call log, one request per trace; server spans of the calling
// service give the checkout arrivals, including those that made no call. The calls then replay
// counterfactually as a request log does.
#include <string>
#include <string_view>

#include "breakerlab/data/incident_import.h"

namespace breakerlab {

bool looksLikeOtlpTraces(std::string_view head);

// Throws LoadError (line:column for JSON syntax, the span's place otherwise).
ImportedIncident importOtlpTraces(std::string_view text, const std::string& file_name,
                                  const ImportOptions& options);

}  // namespace breakerlab
