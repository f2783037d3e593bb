#include "test_support.h"

#include <unistd.h>

#include "breakerlab/data/file_io.h"

namespace breakerlab::test {

std::string resourcePath(std::string_view relative) {
  return std::string(BREAKERLAB_RESOURCES) + "/" + std::string(relative);
}

std::string readResource(std::string_view relative) {
  return readTextFile(resourcePath(relative));
}

std::string pricingText() {
  return readResource(kPricingIncident);
}

TextPosition positionOf(const std::string& text, std::string_view needle, int occurrence) {
  std::size_t at = text.find(needle);
  for (int i = 0; i < occurrence && at != std::string::npos; ++i) at = text.find(needle, at + 1);
  if (at == std::string::npos) {
    ADD_FAILURE() << "text not found: " << needle;
    return {};
  }
  TextPosition p{1, 1};
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

std::string replaceFirst(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "text not found: " << from;
    return text;
  }
  return text.replace(at, from.size(), to);
}

std::optional<LoadError> loadErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const LoadError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a LoadError, got another exception: " << e.what();
    return std::nullopt;
  }
  ADD_FAILURE() << "expected a LoadError, nothing was thrown";
  return std::nullopt;
}

void ScratchDirTest::SetUp() {
  dir_ = std::filesystem::temp_directory_path() /
         ("breakerlab-" + std::to_string(::getpid()) + "-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() + "-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

void ScratchDirTest::TearDown() {
  std::filesystem::remove_all(dir_);
}

}  // namespace breakerlab::test
