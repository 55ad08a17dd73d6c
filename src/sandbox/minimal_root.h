// sandbox/minimal_root.h: a throwaway root filesystem holding a few programs
// and the shared libraries they load, for benchmarks (and tests) that chroot.
#pragma once

#include <string>
#include <vector>

#include "brisk/result.h"

namespace brisk::sandbox {

// Copies each program (an absolute path) into `root` at the same path, with
// the libraries its ELF interpreter would load (`<interp> --list`, what ldd
// runs) and the interpreter itself. A static program needs nothing more.
Result<void> build_minimal_root(const std::string& root, const std::vector<std::string>& programs);

// The ELF interpreter (PT_INTERP) of a program, or empty for a static one.
Result<std::string> elf_interpreter(const std::string& program);

// A minimal root in a fresh temp directory (under $TMPDIR), removed with the
// object. Throws std::runtime_error when it cannot be built.
class MinimalRoot {
 public:
  explicit MinimalRoot(const std::vector<std::string>& programs);
  MinimalRoot(const MinimalRoot&) = delete;
  MinimalRoot& operator=(const MinimalRoot&) = delete;
  ~MinimalRoot();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace brisk::sandbox
