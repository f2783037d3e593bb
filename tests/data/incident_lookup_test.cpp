// A command line's incident argument: a path, or a bundled incident's name.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "breakerlab/data/incident_lookup.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;

struct IncidentLookup : ::testing::Test {
  fs::path root = fs::temp_directory_path() / ("breakerlab-lookup-" + std::to_string(::getpid()));
  fs::path source = root / "source", installed = root / "installed", work = root / "work";
  IncidentLookup() {
    for (const fs::path& d : {source, installed, work}) fs::create_directories(d);
    for (const fs::path& f : {source / "inc-a.yaml", installed / "inc-a.yaml",
                              installed / "inc-b.yaml", source / "plain", work / "inc-a.yaml"})
      std::ofstream(f) << "format: breakerlab/1\n";
    fs::create_directories(source / "inc-dir.yaml");  // a folder is not an incident
  }
  ~IncidentLookup() override { fs::remove_all(root); }
  fs::path resolve(const std::string& argument) const {
    const fs::path dirs[] = {source, installed};
    return resolveIncidentArgument(argument, dirs);
  }
};

TEST_F(IncidentLookup, APathIsItselfAndANameIsLookedUpSourceFirst) {
  struct Case {
    std::string argument;
    fs::path expected;
  };
  const Case cases[] = {
      {"inc-a", source / "inc-a.yaml"},       // the source tree's before the installed
      {"inc-a.yaml", source / "inc-a.yaml"},  // with its suffix too
      {"inc-b", installed / "inc-b.yaml"},    // only installed
      {"plain", source / "plain"},            // a name as it is before name.yaml
      {(work / "inc-a.yaml").string(),
       work / "inc-a.yaml"},   // a path, though a bundled one has its name
      {"./inc-c", "./inc-c"},  // a directory part: never looked up
      {"inc-c", "inc-c"},      // no such incident: as given, to fail on open
      {"inc-dir", "inc-dir"},  // a folder named like one is not an incident
      {"", ""},
  };
  for (const Case& c : cases) EXPECT_EQ(resolve(c.argument), c.expected) << c.argument;
}

TEST_F(IncidentLookup, AFileInTheWorkingDirectoryWinsOverABundledName) {
  const fs::path was = fs::current_path();
  fs::current_path(work);
  EXPECT_EQ(resolve("inc-a.yaml"), fs::path("inc-a.yaml"));
  EXPECT_EQ(resolve("inc-a"), source / "inc-a.yaml");
  fs::current_path(was);
}

}  // namespace
}  // namespace breakerlab
