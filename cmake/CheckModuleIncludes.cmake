# Script mode: fails when a file of sim module MODULE includes a header of a sim module
# that is not among its declared dependencies (ALLOWED, '|'-separated), so that an upward
# or undeclared include fails the build. Writes STAMP on success.
#   cmake -DMODULE=cloth -DDIR=<sim/cloth> -DALLOWED=core|geometry -DSTAMP=<file> -P CheckModuleIncludes.cmake
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" allowed "${ALLOWED}")
list(APPEND allowed "${MODULE}")
file(GLOB_RECURSE files "${DIR}/*.h" "${DIR}/*.cpp" "${DIR}/*.glslh")
set(problems "")
foreach(file IN LISTS files)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"sim/[a-z_]+/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"sim/([a-z_]+)/.*" "\\1" used "${line}")
    if(NOT used IN_LIST allowed)
      string(APPEND problems "\n  ${file}: ${line}  (module '${used}' is not a dependency of '${MODULE}')")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "sim/${MODULE} includes modules it does not declare in sim/CMakeLists.txt "
                      "(hg_sim_module DEPS):${problems}")
endif()
file(WRITE "${STAMP}" "ok\n")
