// The minimal root that chroot tests and benches share: the program, its
// libraries and its interpreter are there, it runs, and it goes away.
#include "sandbox/minimal_root.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "brisk/command.h"
#include "support/test_support.h"

namespace brisk::sandbox {
namespace {

namespace fs = std::filesystem;

TEST(MinimalRoot, HoldsTheProgramAndItsLibrariesAndGoesAway) {
  test::ScopedTmpdir tmp;
  auto interp = elf_interpreter("/bin/ls");
  ASSERT_TRUE(interp) << interp.error().message();
  ASSERT_FALSE(interp->empty());
  std::string path;
  {
    MinimalRoot root({"/bin/ls"});
    path = root.path();
    EXPECT_TRUE(fs::exists(path + "/bin/ls"));
    EXPECT_TRUE(fs::exists(path + *interp));
    bool has_libc = false;
    for (const auto& e : fs::recursive_directory_iterator(path))
      has_libc |= e.path().filename().string().rfind("libc.so", 0) == 0;
    EXPECT_TRUE(has_libc);
    if (test::is_root()) {
      Output out = Command({"/bin/ls", "/"}).chroot(path).output();
      EXPECT_NE(out.out.find("bin"), std::string::npos);
    }
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

TEST(MinimalRoot, AMissingProgramIsAnErrorNamingIt) {
  test::TempDir root;
  auto built = build_minimal_root(root.path(), {"/nonexistent/program"});
  ASSERT_FALSE(built);
  EXPECT_EQ(built.error().code, ENOENT);
  EXPECT_EQ(built.error().object, "/nonexistent/program");
}

TEST(MinimalRoot, ANonElfFileIsAnError) {
  auto interp = elf_interpreter(BRISK_SOURCE_DIR "/README.md");
  ASSERT_FALSE(interp);
  EXPECT_EQ(interp.error().code, ENOEXEC);
}

}  // namespace
}  // namespace brisk::sandbox
