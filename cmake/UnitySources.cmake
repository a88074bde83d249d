# hg_unity_sources(<target>): with HG_UNITY_SOURCES (on by default), the target's .cpp files
# are compiled in unity batches of six: each batch parses the heavy headers (CGAL, Eigen,
# nlohmann/json, assimp) once instead of once per file, which is most of a clean build's
# time on two cores (scripts/test.sh builds everything twice). Files of one batch share a
# translation unit, so two helpers of the same name in unnamed namespaces of one library
# clash: that is a compile error, never a silent one; name them for what they do.
# HG_UNITY_SOURCES=OFF builds file by file (as an IDE's single-file compile does).
option(HG_UNITY_SOURCES "Build the libraries and the CLI in unity batches (faster clean builds)" ON)
function(hg_unity_sources target)
  if(HG_UNITY_SOURCES)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
  endif()
endfunction()
