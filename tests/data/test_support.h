#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/data/load_error.h"

namespace breakerlab::test {

inline constexpr const char* kPricingIncident = "incidents/inc-2026-0908-pricing.yaml";

std::string resourcePath(std::string_view relative);
std::string readResource(std::string_view relative);
std::string pricingText();

struct TextPosition {
  int line = 0;  // 1-based
  int column = 0;
};
// The position of the `occurrence`-th (0-based) occurrence of `needle` in `text`; fails the
// test when there is none.
TextPosition positionOf(const std::string& text, std::string_view needle, int occurrence = 0);
// `text` with its first occurrence of `from` replaced by `to` (fails when absent).
std::string replaceFirst(std::string text, std::string_view from, std::string_view to);

// A test with a scratch folder of its own (named after the process and the test), made empty
// before the test and removed after it.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::filesystem::path dir_;
};

// Runs `f`, which must throw LoadError; returns it (nullopt and a test failure otherwise).
std::optional<LoadError> loadErrorOf(const std::function<void()>& f);

}  // namespace breakerlab::test

// Asserts that `statement` throws a LoadError at `pos` (line and column) whose message contains
// `fragment`.
#define EXPECT_LOAD_ERROR_AT(statement, pos, fragment)                                \
  do {                                                                                \
    const auto error_ = ::breakerlab::test::loadErrorOf([&] { (void)(statement); });  \
    ASSERT_TRUE(error_.has_value());                                                  \
    EXPECT_EQ(error_->line(), (pos).line) << error_->what();                          \
    EXPECT_EQ(error_->column(), (pos).column) << error_->what();                      \
    EXPECT_NE(error_->message().find(fragment), std::string::npos) << error_->what(); \
  } while (false)
