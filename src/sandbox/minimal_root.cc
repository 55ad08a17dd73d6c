#include "sandbox/minimal_root.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "brisk/command.h"

namespace brisk::sandbox {

namespace fs = std::filesystem;

Result<std::string> elf_interpreter(const std::string& program) {
  std::ifstream in(program, std::ios::binary);
  if (!in) return SysError{.code = errno ? errno : ENOENT, .call = "open", .object = program};
  Elf64_Ehdr header{};
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  if (!in || std::string_view(reinterpret_cast<char*>(header.e_ident), 4) != ELFMAG ||
      header.e_ident[EI_CLASS] != ELFCLASS64)
    return SysError{
        .code = ENOEXEC, .call = "read ELF header", .object = program, .detail = "not a 64-bit ELF file"};
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + static_cast<std::size_t>(i) * header.e_phentsize));
    in.read(reinterpret_cast<char*>(&ph), sizeof ph);
    if (!in) return SysError{.code = EIO, .call = "read ELF program header", .object = program};
    if (ph.p_type != PT_INTERP) continue;
    std::string interp(ph.p_filesz, '\0');
    in.seekg(static_cast<std::streamoff>(ph.p_offset));
    in.read(interp.data(), static_cast<std::streamsize>(interp.size()));
    if (!in) return SysError{.code = EIO, .call = "read PT_INTERP", .object = program};
    interp.resize(interp.find('\0') == std::string::npos ? interp.size() : interp.find('\0'));
    return interp;
  }
  return std::string();
}

namespace {

Result<void> copy_in(const std::string& root, const std::string& path) {
  std::error_code ec;
  fs::path target = fs::path(root) / fs::path(path).relative_path();
  fs::create_directories(target.parent_path(), ec);
  if (!ec) fs::copy_file(fs::canonical(path, ec), target, fs::copy_options::overwrite_existing, ec);
  if (ec) return SysError{.code = ec.value(), .call = "copy", .object = path, .detail = "into " + root};
  return {};
}

}  // namespace

Result<void> build_minimal_root(const std::string& root, const std::vector<std::string>& programs) {
  for (const auto& program : programs) {
    BRISK_TRY(copy_in(root, program));
    std::string interp = BRISK_TRY(elf_interpreter(program));
    if (interp.empty()) continue;
    BRISK_TRY(copy_in(root, interp));
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
    Output listed;
    try {
      listed = Command({interp, "--list", program}).stderr_to(Sink::capture()).check(false).output();
    } catch (const std::exception& e) {
      return SysError{.code = 0, .call = "list libraries", .object = program, .detail = e.what()};
    }
    if (!listed.status.success())
      return SysError{.code = 0,
                      .call = "list libraries",
                      .object = program,
                      .detail = interp + " --list: " + listed.err};
    std::istringstream words(listed.out);
    for (std::string word; words >> word;)
      if (word[0] == '/') BRISK_TRY(copy_in(root, word));
  }
  return {};
}

MinimalRoot::MinimalRoot(const std::vector<std::string>& programs) {
  std::string tmpl = (fs::temp_directory_path() / "brisk-root-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp " + tmpl + ": " + std::strerror(errno));
  path_ = tmpl;
  auto built = build_minimal_root(path_, programs);
  if (!built) {
    std::error_code ec;
    fs::remove_all(path_, ec);
    throw std::runtime_error("building a minimal root: " + built.error().message());
  }
}

MinimalRoot::~MinimalRoot() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace brisk::sandbox
