# GLAD 2 generated at configure/build time from Debian's python3-glad (offline:
# --reproducible). Produces the static library `hg_glad` with the GL 4.5 core and
# EGL 1.5 loaders (EGL is dlopen'ed at run time by glad's loader, so a machine
# without libEGL gets a clear error instead of a failed program start).
#
# Override the interpreter with -DHG_GLAD_PYTHON=/path/to/python3.

set(HG_GLAD_PYTHON "" CACHE FILEPATH "Python interpreter that can import glad (python3-glad)")

function(_hg_python_has_glad interpreter out_var)
  execute_process(COMMAND "${interpreter}" -c "import glad"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(${out_var} TRUE PARENT_SCOPE)
  else()
    set(${out_var} FALSE PARENT_SCOPE)
  endif()
endfunction()

if(HG_GLAD_PYTHON)
  _hg_python_has_glad("${HG_GLAD_PYTHON}" ok)
  if(NOT ok)
    message(FATAL_ERROR "HG_GLAD_PYTHON=${HG_GLAD_PYTHON} cannot 'import glad'. Install python3-glad or point HG_GLAD_PYTHON at an interpreter that has it.")
  endif()
  set(_hg_glad_python "${HG_GLAD_PYTHON}")
else()
  # /usr/bin/python3 first: a pyenv or venv python earlier on PATH usually lacks Debian's glad.
  set(_candidates /usr/bin/python3)
  find_program(_hg_path_python3 NAMES python3 NO_CACHE)
  if(_hg_path_python3)
    list(APPEND _candidates "${_hg_path_python3}")
  endif()
  foreach(candidate IN LISTS _candidates)
    if(EXISTS "${candidate}")
      _hg_python_has_glad("${candidate}" ok)
      if(ok)
        set(_hg_glad_python "${candidate}")
        break()
      endif()
    endif()
  endforeach()
  if(NOT _hg_glad_python)
    message(FATAL_ERROR "No Python interpreter can 'import glad' (tried: ${_candidates}). Run scripts/install-deps.sh (Debian package python3-glad) or set -DHG_GLAD_PYTHON=...")
  endif()
endif()
message(STATUS "GLAD generator: ${_hg_glad_python} -m glad")

set(_glad_dir "${CMAKE_BINARY_DIR}/glad")
set(_glad_sources "${_glad_dir}/src/gl.c" "${_glad_dir}/src/egl.c")
add_custom_command(
  OUTPUT ${_glad_sources} "${_glad_dir}/include/glad/gl.h" "${_glad_dir}/include/glad/egl.h"
  COMMAND "${_hg_glad_python}" -m glad --quiet --reproducible
          --api gl:core=4.5,egl=1.5 --out-path "${_glad_dir}" c --loader
  COMMENT "Generating GLAD 2 loaders (GL 4.5 core, EGL 1.5)"
  VERBATIM)

add_library(hg_glad STATIC ${_glad_sources})
target_include_directories(hg_glad SYSTEM PUBLIC "${_glad_dir}/include")
target_link_libraries(hg_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(hg_glad PROPERTIES POSITION_INDEPENDENT_CODE ON C_CLANG_TIDY "")
