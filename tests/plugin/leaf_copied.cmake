# A small leaf's decoder (PBCI_LEAF_DECODER: at most two fields, none
# repeated or a message) is copied into the decoders that call it, as a
# call cost more than its decode (docs/design.md). Compiles every generated
# .pb-iter.c of the test protos with gcc and clang (both required), at -O0
# and -O2, and fails where the code of an object still refers to a leaf's
# decoder defined in it: a call left in place shows as a relocation against
# its name. (The runtime's table holds its address as data, which
# `objdump -d` does not show.) Fails too when no source defines a leaf, so
# the test cannot pass on nothing.
#   cmake -DGEN_DIR=.. -DINCLUDES="a;b" -DOUT=dir -P leaf_copied.cmake
file(GLOB_RECURSE sources ${GEN_DIR}/*.pb-iter.c)
if(NOT sources)
  message(FATAL_ERROR "no .pb-iter.c under ${GEN_DIR}")
endif()
foreach(tool gcc clang objdump)
  find_program(path_${tool} ${tool})
  if(NOT path_${tool})
    message(FATAL_ERROR "${tool} not found: install it (cmake/install-deps.sh does)")
  endif()
endforeach()
list(TRANSFORM INCLUDES PREPEND -I OUTPUT_VARIABLE flags)
file(MAKE_DIRECTORY "${OUT}")

set(leaves 0)
set(found)
foreach(src IN LISTS sources)
  file(STRINGS ${src} lines REGEX "^PBCI_LEAF_DECODER ptrdiff_t [A-Za-z0-9_]+\\(")
  set(names)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^PBCI_LEAF_DECODER ptrdiff_t ([A-Za-z0-9_]+)\\(.*" "\\1" name "${line}")
    list(APPEND names ${name})
  endforeach()
  if(NOT names)
    continue()
  endif()
  list(LENGTH names n)
  math(EXPR leaves "${leaves} + ${n}")
  string(JOIN "|" alternatives ${names})
  get_filename_component(file ${src} NAME)
  foreach(cc gcc clang)
    foreach(level -O0 -O2)
      set(obj ${OUT}/${file}.${cc}${level}.o)
      execute_process(COMMAND ${path_${cc}} -std=c99 ${level} ${flags} -c ${src} -o ${obj}
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${cc} ${level} failed on ${src}:\n${err}")
      endif()
      execute_process(COMMAND ${path_objdump} -dr ${obj}
                      OUTPUT_VARIABLE asm RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "objdump failed on ${obj}")
      endif()
      # A relocation line: offset, type, then the symbol (and an addend).
      string(REGEX MATCHALL "R_[A-Z0-9_]+[ \t]+(${alternatives})[-+ \n]" calls "${asm}")
      if(calls)
        list(GET calls 0 first)
        string(STRIP "${first}" first)
        list(APPEND found "${file} (${cc} ${level}): ${first}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(leaves EQUAL 0)
  message(FATAL_ERROR "no leaf decoder in the generated sources under ${GEN_DIR}")
elseif(found)
  list(JOIN found "\n  " calls)
  message(FATAL_ERROR "a leaf's decoder still called:\n  ${calls}")
endif()
message(STATUS "${leaves} leaf decoders, each copied into its callers (gcc, clang; -O0, -O2)")
