# libmnl as the target PkgConfig::LIBMNL: through pkg-config when there is
# one. The library-only build (what the Ruby gem runs) also works without
# pkg-config, which Debian's libmnl-dev does not pull in.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LIBMNL REQUIRED IMPORTED_TARGET libmnl)
elseif(NOT BRISK_LIBRARY_ONLY)
  message(FATAL_ERROR "pkg-config not found (Debian package: pkg-config)")
else()
  find_path(LIBMNL_INCLUDE_DIR libmnl/libmnl.h)
  find_library(LIBMNL_LIBRARY mnl)
  if(NOT LIBMNL_INCLUDE_DIR OR NOT LIBMNL_LIBRARY)
    message(FATAL_ERROR "libmnl not found (Debian package: libmnl-dev)")
  endif()
  add_library(PkgConfig::LIBMNL INTERFACE IMPORTED)
  set_target_properties(PkgConfig::LIBMNL PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${LIBMNL_INCLUDE_DIR}"
                        INTERFACE_LINK_LIBRARIES "${LIBMNL_LIBRARY}")
endif()
