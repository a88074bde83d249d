# hg_set_warnings(<target>): strict warnings; errors when HG_WARNINGS_AS_ERRORS (CI).
option(HG_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
function(hg_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual
    $<$<BOOL:${HG_WARNINGS_AS_ERRORS}>:-Werror>)
endfunction()
