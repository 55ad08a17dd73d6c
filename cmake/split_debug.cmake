# Run at install time (install(CODE) in the top-level CMakeLists.txt): each
# installed program loses its debug info, which moves to
# <prefix>/lib/debug/<its installed path>.debug with a .gnu_debuglink to it,
# the layout gdb and debuginfod clients search (for a /usr prefix:
# /usr/lib/debug/usr/bin/brisk.debug). What ships is what runs; the line
# tables stay available for a backtrace.
#
# In: BRISK_SPLIT_FILES (paths below the prefix), BRISK_OBJCOPY, BRISK_STRIP.
foreach(relative ${BRISK_SPLIT_FILES})
  set(prefix "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
  set(file "${prefix}/${relative}")
  if(NOT EXISTS "${file}")
    continue()
  endif()
  set(debug "${prefix}/lib/debug${CMAKE_INSTALL_PREFIX}/${relative}.debug")
  get_filename_component(debug_dir "${debug}" DIRECTORY)
  file(MAKE_DIRECTORY "${debug_dir}")
  execute_process(COMMAND ${BRISK_OBJCOPY} --only-keep-debug "${file}" "${debug}" RESULT_VARIABLE failed)
  if(NOT failed)
    execute_process(COMMAND ${BRISK_STRIP} --strip-debug --strip-unneeded "${file}" RESULT_VARIABLE failed)
  endif()
  if(NOT failed)
    execute_process(COMMAND ${BRISK_OBJCOPY} "--add-gnu-debuglink=${debug}" "${file}" RESULT_VARIABLE failed)
  endif()
  if(failed)
    message(FATAL_ERROR "split debug info of ${file}: failed")
  endif()
  message(STATUS "Stripped: ${file} (debug info: ${debug})")
endforeach()
