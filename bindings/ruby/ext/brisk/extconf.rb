# frozen_string_literal: true

# Builds brisk_ext.so for `gem install`, linking the static libbrisk.
#
# libbrisk comes from a brisk source tree: BRISK_ROOT (or
# --with-brisk-dir=DIR), by default the checkout this file sits in. Its
# build/src/libbrisk.a is used when present (BRISK_BUILD overrides the build
# directory); otherwise libbrisk is built with CMake first, which needs the
# packages scripts/install-deps installs.
require "mkmf"

here = File.expand_path(__dir__)
default_root = File.expand_path("../../../..", here)
root = with_config("brisk-dir") || ENV["BRISK_ROOT"] || default_root
unless File.exist?(File.join(root, "include/brisk/command.h"))
  abort "brisk sources not found at #{root}: set BRISK_ROOT or --with-brisk-dir to a brisk checkout"
end

build = ENV["BRISK_BUILD"] || File.join(root, "build")
library = File.join(build, "src/libbrisk.a")
unless File.exist?(library)
  build = File.join(Dir.pwd, "brisk-build")
  library = File.join(build, "src/libbrisk.a")
  ok = system("cmake", "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DBRISK_BUILD_TESTS=OFF",
              "-DBRISK_BUILD_BENCH=OFF") &&
       system("cmake", "--build", build, "--target", "brisk", "-j2")
  abort "building libbrisk with CMake failed" unless ok
end

$INCFLAGS << " -I#{File.join(root, "include")}"
# Ruby's headers as system headers: they are not -Wextra clean (GCC ignores
# the -I mkmf also passes for a directory given with -isystem).
ruby_headers = RbConfig::CONFIG.values_at("rubyarchhdrdir", "rubyhdrdir").map { |dir| " -isystem #{dir}" }.join
$CXXFLAGS << "#{ruby_headers} -std=c++20 -fvisibility=hidden -Wall -Wextra"
# libbrisk.a and what it needs (fmt, libmnl), all static into the extension
# but for the system libraries.
$LOCAL_LIBS << " #{library}"
have_library("fmt") or abort "libfmt-dev is missing"
have_library("mnl") or abort "libmnl-dev is missing"
have_library("pthread")
create_makefile("brisk/brisk_ext")
