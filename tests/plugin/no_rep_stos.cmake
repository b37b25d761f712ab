# Regression.StructSetUpUsedRepStos: gcc on x86 zeroed the new structs of
# 88 bytes (x86-64) or 36 (i386) that PBCI_SET_UP assigned with `rep stos`,
# whose start-up of about 35 cycles cost rtb_bid_request an eighth of its
# decode (docs/design.md). Compiles every generated .pb-iter.c of the test
# protos with gcc -O2 (gcc 12 chose the same at -O3) as x86-64 and, where
# gcc can, i386 code, and fails on any `rep stos` in the objects. Skipped
# off x86 or without gcc: the copy is gcc's and x86's only.
#   cmake -DGEN_DIR=.. -DINCLUDES="a;b" -DOUT=dir -DPROCESSOR=x86_64
#         -P no_rep_stos.cmake
if(NOT PROCESSOR MATCHES "^(x86_64|AMD64|i.86)$")
  message("SKIPPED: not an x86 host (${PROCESSOR})")
  return()
endif()
find_program(GCC gcc)
find_program(OBJDUMP objdump)
if(NOT GCC OR NOT OBJDUMP)
  message("SKIPPED: needs gcc and objdump")
  return()
endif()
file(GLOB_RECURSE sources ${GEN_DIR}/*.pb-iter.c)
if(NOT sources)
  message(FATAL_ERROR "no .pb-iter.c under ${GEN_DIR}")
endif()
set(flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags -I${dir})
endforeach()
file(MAKE_DIRECTORY "${OUT}")

# Each target's flags as one string (split again below). i386 only where
# gcc builds it (Debian: gcc-multilib).
include(${CMAKE_CURRENT_LIST_DIR}/../m32/m32_flags.cmake)
set(targets "-m64")
list(GET sources 0 probe)
execute_process(COMMAND ${GCC} ${PBCI_M32} -O2 ${flags} -c ${probe} -o ${OUT}/probe.o
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
  string(JOIN " " m32 ${PBCI_M32})
  list(APPEND targets "${m32}")
else()
  message(STATUS "gcc cannot build i386 code here: x86-64 only")
endif()

set(count 0)
set(found)
foreach(target IN LISTS targets)
  string(REPLACE " " ";" target_flags "${target}")
  foreach(src IN LISTS sources)
    get_filename_component(name ${src} NAME_WE)
    set(obj ${OUT}/${name}.o)
    execute_process(COMMAND ${GCC} ${target_flags} -O2 ${flags} -c ${src} -o ${obj}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "gcc ${target} -O2 failed on ${src}:\n${err}")
    endif()
    execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${obj}
                    OUTPUT_VARIABLE asm RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "objdump failed on ${obj}")
    endif()
    if(asm MATCHES "rep stos")
      list(APPEND found "${name} (${target})")
    endif()
    math(EXPR count "${count} + 1")
  endforeach()
endforeach()
if(found)
  string(REPLACE ";" "\n  " found "${found}")
  message(FATAL_ERROR "rep stos in generated code:\n  ${found}")
endif()
message(STATUS "${count} objects without rep stos")
