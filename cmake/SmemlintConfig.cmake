# SmemlintConfig.cmake - use smemlint from CMake.
#
#   find_package(Smemlint REQUIRED)      # or include(<smemlint>/cmake/SmemlintConfig.cmake)
#   smemlint_add_lint_target(lint-cuda
#     SOURCES src/kernels.cu src/more.cu   # files or directories
#     [OPTIONS --block-dim 256 --severity bank-conflict=error]
#     [FLAGS -I${CMAKE_CURRENT_SOURCE_DIR}/include -DTILE=32]
#     [ALL])                             # also run as part of the default build
#
# `cmake --build . --target lint-cuda` runs smemlint and fails when it
# reports findings (exit status 1) or cannot read its input (2).
#
# For linting as you compile, use the launcher mode instead:
#   set(CMAKE_CUDA_COMPILER_LAUNCHER ${SMEMLINT_EXECUTABLE} --launcher --)
#
# SMEMLINT_EXECUTABLE: the smemlint binary; set it to override. Found next
# to this file when installed (<prefix>/lib/cmake/Smemlint -> <prefix>/bin),
# else on PATH.
#
# Embedding the library (installed tree only, a project with C or C++
# enabled; doc/embedding.md):
#   find_package(Smemlint CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE Smemlint::smemlint)
# Smemlint::smemlint carries the public headers' include directory and every
# stage library (Smemlint::sm_base ... Smemlint::sm_emit, static) with their
# own dependencies: libclang, jansson and libyaml (found through pkg-config,
# as the build found them) and Threads.

if(NOT SMEMLINT_EXECUTABLE)
  get_filename_component(_smemlint_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
  find_program(SMEMLINT_EXECUTABLE smemlint HINTS "${_smemlint_prefix}/bin" NO_CACHE)
  if(NOT SMEMLINT_EXECUTABLE)
    find_program(SMEMLINT_EXECUTABLE smemlint)
  endif()
endif()
if(NOT SMEMLINT_EXECUTABLE)
  set(Smemlint_FOUND FALSE)
  set(Smemlint_NOT_FOUND_MESSAGE "smemlint not found: install it or set SMEMLINT_EXECUTABLE")
  return()
endif()

# the library's imported targets, where this file was installed with them
# and the project compiles C or C++ (a project of LANGUAGES NONE that only
# lints links nothing)
get_property(_smemlint_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/SmemlintTargets.cmake" AND NOT TARGET Smemlint::smemlint
   AND ("C" IN_LIST _smemlint_languages OR "CXX" IN_LIST _smemlint_languages))
  include(CMakeFindDependencyMacro)
  find_dependency(Threads)
  find_dependency(PkgConfig)
  # the stage libraries name these two as the build made them
  foreach(_smemlint_dep JANSSON:jansson YAML:yaml-0.1)
    string(REPLACE ":" ";" _smemlint_dep "${_smemlint_dep}")
    list(GET _smemlint_dep 0 _smemlint_prefix_var)
    list(GET _smemlint_dep 1 _smemlint_module)
    if(NOT TARGET PkgConfig::${_smemlint_prefix_var})
      pkg_check_modules(${_smemlint_prefix_var} QUIET IMPORTED_TARGET ${_smemlint_module})
      if(NOT TARGET PkgConfig::${_smemlint_prefix_var})
        set(Smemlint_FOUND FALSE)
        set(Smemlint_NOT_FOUND_MESSAGE "smemlint's library needs ${_smemlint_module}: install its development package")
        return()
      endif()
    endif()
  endforeach()
  include("${CMAKE_CURRENT_LIST_DIR}/SmemlintTargets.cmake")
endif()
set(Smemlint_FOUND TRUE)

function(smemlint_add_lint_target NAME)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "ALL" "" "SOURCES;OPTIONS;FLAGS")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "smemlint_add_lint_target(${NAME}): no SOURCES given")
  endif()
  set(_srcs "")
  foreach(_s IN LISTS ARG_SOURCES)
    if(NOT IS_ABSOLUTE "${_s}")
      set(_s "${CMAKE_CURRENT_SOURCE_DIR}/${_s}")
    endif()
    list(APPEND _srcs "${_s}")
  endforeach()
  set(_all "")
  if(ARG_ALL)
    set(_all ALL)
  endif()
  set(_flags "")
  if(ARG_FLAGS)
    set(_flags -- ${ARG_FLAGS})
  endif()
  add_custom_target(${NAME} ${_all}
    COMMAND "${SMEMLINT_EXECUTABLE}" ${ARG_OPTIONS} ${_srcs} ${_flags}
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    COMMENT "smemlint: checking shared-memory accesses (${NAME})"
    VERBATIM)
endfunction()
