// store_dir.h: one directory of the lease store, held open, so that every
// file operation in it goes through its descriptor. Whoever can write the
// data dir can swap a directory for a symlink; the store's own directories
// are therefore opened without following one, and a swap made after the
// open cannot redirect a write.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <vector>

#include "brisk/fd.h"

namespace brisk::cni::detail {

class StoreDir {
 public:
  // The data dir named by the config, made as mkdir -p would. It is the
  // administrator's choice, so a symlink there (/var/lib/cni -> /srv/cni)
  // is followed.
  static StoreDir open_top(const std::string& path, mode_t mode);
  // `name` inside this directory, made if missing. A symlink or anything
  // but a directory there is refused (CniException, io_failure).
  StoreDir subdirectory(const std::string& name, mode_t mode) const;

  const std::string& path() const { return path_; }
  // The names in the directory, without "." and "..".
  std::vector<std::string> list() const;
  struct stat status() const;
  // Opens `name` with O_NOFOLLOW added to flags; failures throw.
  UniqueFd open(const std::string& name, int flags, mode_t mode = 0) const;

  // A file that anyone with write access to the store may have put there:
  // the whole file when it is a regular file of at most `limit` bytes, else
  // nullopt. It never follows a symlink, never waits on a FIFO or a device,
  // and never fails: a file it cannot read is for the caller to count as
  // taken, never a reason to stop.
  std::optional<std::string> read(const std::string& name, std::size_t limit = 4096) const;
  // Creates `name` holding `data`, whole or not at all: the bytes are
  // written to an unnamed file (O_TMPFILE) that is then linked in. false
  // when the name exists, as O_EXCL would say.
  bool create_exclusive(const std::string& name, const std::string& data, mode_t mode) const;
  // Replaces `name` with `data` atomically (a temporary file renamed over it).
  void replace(const std::string& name, const std::string& data, mode_t mode) const;
  // unlink; false when it did not exist.
  bool remove(const std::string& name) const;

 private:
  StoreDir(UniqueFd fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}
  std::string path_of(const std::string& name) const { return path_ + "/" + name; }
  // A new temporary file holding data; returns its name.
  std::string write_temp(const std::string& data, mode_t mode) const;

  UniqueFd fd_;
  std::string path_;
};

// The prefix of the temporary files replace() writes: one left by a writer
// killed half-way holds no lease.
inline constexpr const char* kTempPrefix = ".brisk-tmp-";

}  // namespace brisk::cni::detail
