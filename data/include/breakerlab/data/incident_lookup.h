#pragma once
// An incident as a user names it on a command line: a path, or a bundled incident's name
// ("inc-2026-0908-pricing", with or without ".yaml"). One rule for breakerlab-cli and the
// workbench.
#include <filesystem>
#include <span>
#include <string>

namespace breakerlab {

// `argument` itself when it names a file or has a directory part; else the first of
// `bundled_dirs`/ARGUMENT and `bundled_dirs`/ARGUMENT.yaml that is a file; else `argument`
// (opening it then reports "No such file or directory").
std::filesystem::path resolveIncidentArgument(const std::string& argument,
                                              std::span<const std::filesystem::path> bundled_dirs);

}  // namespace breakerlab
