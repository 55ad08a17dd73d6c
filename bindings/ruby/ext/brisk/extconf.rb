# frozen_string_literal: true

# Builds brisk_ext.so for `gem install`. libbrisk comes from, in order:
#   1. an installed libbrisk that `pkg-config brisk` finds (`make install`
#      writes brisk.pc; PKG_CONFIG_PATH points pkg-config at a prefix);
#   2. libbrisk's sources: the ones the gem carries (vendor/libbrisk, packed
#      by brisk.gemspec) or, run from a checkout, the tree itself
#      (BRISK_ROOT or --with-brisk-dir name another). They are built with
#      CMake as the library alone, into the extension's build directory,
#      unless BRISK_BUILD (default: the tree's build/) holds a libbrisk.a.
# A missing build tool or library aborts naming its Debian package.
require "mkmf"
require "etc"

def missing(what, package)
  abort "brisk: #{what} not found; install the Debian package #{package} (apt-get install #{package})"
end

# pkg-config's answer for libbrisk, or nil when it has none.
def brisk_pkg_config(*query)
  return nil unless find_executable("pkg-config")

  out = IO.popen(["pkg-config", *query, "brisk"], err: File::NULL, &:read)
  $?.success? ? out.strip : nil
end

def sources_root
  here = File.expand_path(__dir__)
  given = with_config("brisk-dir") || ENV["BRISK_ROOT"]
  candidates = given ? [given] : [File.expand_path("../../vendor/libbrisk", here), File.expand_path("../../../..", here)]
  root = candidates.find { |dir| File.exist?(File.join(dir, "include/brisk/command.h")) }
  abort "brisk: no libbrisk: pkg-config finds no brisk.pc and no sources are at #{candidates.join(" or ")}" unless root
  root
end

# Builds libbrisk.a with CMake unless a build of it exists; returns its path.
def build_libbrisk(root)
  library = File.join(ENV["BRISK_BUILD"] || File.join(root, "build"), "src/libbrisk.a")
  return library if File.exist?(library)

  find_executable("cmake") or missing("cmake", "cmake")
  have_header("libmnl/libmnl.h") or missing("libmnl/libmnl.h", "libmnl-dev")
  have_library("mnl") or missing("libmnl", "libmnl-dev")
  build = File.join(Dir.pwd, "libbrisk-build")
  message "brisk: building libbrisk from the sources in #{root}\n"
  ok = system("cmake", "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DBRISK_LIBRARY_ONLY=ON") &&
       system("cmake", "--build", build, "--target", "brisk", "-j", Etc.nprocessors.to_s)
  abort "brisk: building libbrisk with CMake failed (output above)" unless ok
  File.join(build, "src/libbrisk.a")
end

compiler = RbConfig::CONFIG["CXX"].split.first
find_executable(compiler) or missing("the C++ compiler #{compiler}", "g++")

if (libs = brisk_pkg_config("--libs", "--static"))
  message "brisk: using the installed libbrisk #{brisk_pkg_config("--modversion")} (pkg-config)\n"
  $INCFLAGS << " #{brisk_pkg_config("--cflags")}"
  # A shared libbrisk outside the loader's path must be found at run time.
  libdir = brisk_pkg_config("--variable=libdir")
  libs = "#{libs} -Wl,-rpath,#{libdir}" if libdir && Dir.exist?(libdir) && !Dir[File.join(libdir, "libbrisk.so*")].empty?
  $LOCAL_LIBS << " #{libs}"
else
  root = sources_root
  library = build_libbrisk(root)
  $INCFLAGS << " -I#{File.join(root, "include")}"
  have_library("mnl") or missing("libmnl", "libmnl-dev")
  $LOCAL_LIBS << " #{library} -lmnl -pthread"
end

# Ruby's headers as system headers: they are not -Wextra clean (GCC ignores
# the -I mkmf also passes for a directory given with -isystem).
ruby_headers = RbConfig::CONFIG.values_at("rubyarchhdrdir", "rubyhdrdir").map { |dir| " -isystem #{dir}" }.join
$CXXFLAGS << "#{ruby_headers} -std=c++20 -fvisibility=hidden -Wall -Wextra"
# A static libbrisk's exported API stays inside the extension, which exports Init_brisk_ext alone.
$LDFLAGS << " -Wl,--exclude-libs,libbrisk.a"
create_makefile("brisk/brisk_ext")
