# What a build costs on two cores. Each choice here was measured (see
# docs/building.md); each can be turned off, and none changes what the code does.

# Unity builds: each target's sources compiled in batches of eight, so that
# the heavy headers (fmt, nlohmann/json, CLI11, gtest, <regex>) are parsed
# and their templates instantiated once per batch, not once per file. Files
# with their own compile options (the vfork child's) are never batched.
option(BRISK_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
set(BRISK_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch")
if(BRISK_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${BRISK_UNITY_BATCH_SIZE})
endif()

# Line tables only (-g1) in the optimised build: enough for a backtrace and
# perf's source lines, and a file compiles in about 30 % less time than with
# -g. -DBRISK_FULL_DEBUG_INFO=ON brings full -g back, for a debugger.
option(BRISK_FULL_DEBUG_INFO "Full debug info (-g) in RelWithDebInfo and Debug builds, not line tables (-g1)" OFF)
if(NOT BRISK_FULL_DEBUG_INFO)
  foreach(lang C CXX)
    foreach(config RELWITHDEBINFO DEBUG)
      string(REGEX REPLACE "(^| )-g( |$)" "\\1-g1\\2" CMAKE_${lang}_FLAGS_${config} "${CMAKE_${lang}_FLAGS_${config}}")
    endforeach()
  endforeach()
endif()

# mold links the test programs and brisk several times faster than ld.bfd.
# Used when installed (scripts/install-deps installs it) and the compiler
# takes -fuse-ld=mold (GCC 12, clang).
option(BRISK_USE_MOLD "Link with mold when it is installed" ON)
if(BRISK_USE_MOLD)
  find_program(BRISK_MOLD mold)
  if(BRISK_MOLD)
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=mold BRISK_LINKER_TAKES_MOLD)
    if(BRISK_LINKER_TAKES_MOLD)
      add_link_options(-fuse-ld=mold)
    endif()
  endif()
endif()

# ccache, when installed and no launcher was chosen: a rebuild in another
# tree (a clean clone, CI's sanitizer trees) reuses what was compiled.
# Paths are hashed relative to the source tree (base_dir), so that two
# clones share their entries.
option(BRISK_USE_CCACHE "Compile through ccache when it is installed" ON)
if(BRISK_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(BRISK_CCACHE ccache)
  if(BRISK_CCACHE)
    set(BRISK_CCACHE_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${BRISK_CCACHE})
    set(CMAKE_C_COMPILER_LAUNCHER ${BRISK_CCACHE_LAUNCHER})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${BRISK_CCACHE_LAUNCHER})
  endif()
endif()

# Every unity batch starts with glibc's socket headers. The kernel's uapi
# headers (<linux/if.h>, <linux/in6.h>) define what glibc's do unless glibc's
# came first (linux/libc-compat.h), and in a batch one file's kernel header
# may precede the next file's glibc one. Call once, after every directory
# that makes targets has been added.
function(brisk_unity_prelude)
  foreach(dir ${ARGN})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(NOT type STREQUAL "INTERFACE_LIBRARY" AND NOT type STREQUAL "UTILITY")
        set_target_properties(${target} PROPERTIES UNITY_BUILD_CODE_BEFORE_INCLUDE
          "#include <sys/socket.h>\n#include <netinet/in.h>\n#include <net/if.h>")
      endif()
    endforeach()
  endforeach()
endfunction()
