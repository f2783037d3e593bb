#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <stdexcept>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/output_file.h"
#include "test_support.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("breakerlab-file-io-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileIo, WritesAndReplaces) {
  const fs::path file = dir_ / "config.yaml";
  writeOutputFile(file, "first\n");
  EXPECT_EQ(readTextFile(file), "first\n");
  writeOutputFile(file, "second");
  EXPECT_EQ(readTextFile(file), "second");
  writeOutputFile(file, "");
  EXPECT_EQ(readTextFile(file), "");
  // No temporary files are left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(FileIo, KeepsThePermissionsOfTheReplacedFile) {
  const fs::path file = dir_ / "x.yaml";
  const mode_t umask_before = ::umask(022);  // a new file: rw-rw-rw- less the umask
  writeOutputFile(file, "a");
  ::umask(umask_before);
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  writeOutputFile(file, "b");
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(FileIo, LargeContents) {
  const std::string big(3'000'000, 'x');
  writeOutputFile(dir_ / "big", big);
  EXPECT_EQ(readTextFile(dir_ / "big"), big);
}

TEST_F(FileIo, FailureNamesThePath) {
  const fs::path file = dir_ / "missing-dir" / "x.yaml";
  try {
    writeOutputFile(file, "a");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace breakerlab
