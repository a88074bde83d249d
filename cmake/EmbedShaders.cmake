# hg_embed_files(<target> NAME <symbol> ENTRIES <name>=<path>...)
# Adds a generated C++ source to <target> defining hg::embedded::<symbol>(), which
# returns every file's contents under its <name> (gl/EmbeddedFiles.h).
# Rebuilt when any of the files changes.
set(_HG_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/EmbedFilesScript.cmake")

function(hg_embed_files target)
  cmake_parse_arguments(ARG "" "NAME" "ENTRIES" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_${ARG_NAME}.cpp")
  set(deps "")
  foreach(entry IN LISTS ARG_ENTRIES)
    string(FIND "${entry}" "=" eq)
    math(EXPR start "${eq} + 1")
    string(SUBSTRING "${entry}" ${start} -1 path)
    list(APPEND deps "${path}")
  endforeach()
  string(REPLACE ";" "|" entries_arg "${ARG_ENTRIES}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${out}" "-DSYMBOL=${ARG_NAME}" "-DENTRIES=${entries_arg}" -P "${_HG_EMBED_SCRIPT}"
    DEPENDS ${deps} "${_HG_EMBED_SCRIPT}"
    COMMENT "Embedding ${ARG_NAME}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
