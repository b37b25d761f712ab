# Compiles every generated .pb-c.c and .pb-iter.c of the test protos (or
# the runtime's sources) with gcc and clang (both required), as C99 and
# C11, at -O0 and -O2, with -Wall -Wextra -Werror: generated code and the
# runtime must build warning-free everywhere.
#   cmake -DGEN_DIR=.. -DINCLUDES="a;b" -P compile_corpus.cmake
file(GLOB_RECURSE sources ${GEN_DIR}/*.c)
if(NOT sources)
  message(FATAL_ERROR "no C sources under ${GEN_DIR}")
endif()
set(compilers)
foreach(cc gcc clang)
  find_program(path_${cc} ${cc})
  if(path_${cc})
    list(APPEND compilers ${path_${cc}})
  endif()
endforeach()
# docs/testing.md promises both: a missing one fails rather than passing on less.
foreach(cc gcc clang)
  if(NOT path_${cc})
    message(FATAL_ERROR "${cc} not found: install it (cmake/install-deps.sh does)")
  endif()
endforeach()
set(flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags -I${dir})
endforeach()
set(count 0)
foreach(cc IN LISTS compilers)
  foreach(std c99 c11)
    foreach(opt -O0 -O2)
      foreach(src IN LISTS sources)
        execute_process(
          COMMAND ${cc} -std=${std} ${opt} -Wall -Wextra -Werror ${flags} -c ${src} -o /dev/null
          RESULT_VARIABLE rc ERROR_VARIABLE err)
        if(NOT rc EQUAL 0)
          message(FATAL_ERROR "${cc} -std=${std} ${opt} failed on ${src}:\n${err}")
        endif()
        math(EXPR count "${count} + 1")
      endforeach()
    endforeach()
  endforeach()
endforeach()
message(STATUS "${count} compilations warning-free")
