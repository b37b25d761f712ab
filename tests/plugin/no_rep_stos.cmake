# gcc on x86 expands some copies and fills as `rep stos` / `rep movs`,
# whose start-up costs about 35 cycles each time (docs/design.md). Compiles
# sources with gcc as x86-64 and, where gcc can, i386 code, and fails on
# any instruction matching PATTERN in the objects. Skipped off x86 or
# without gcc. Three regression tests:
# - Regression.StructSetUpUsedRepStos: every generated .pb-iter.c of the
#   test protos (GEN_DIR), -O2 (gcc 12 chose the same at -O3), both targets,
#   `rep stos`: gcc zeroed the new structs of 88 bytes (x86-64) or 36
#   (i386) that PBCI_SET_UP assigned with it, an eighth of
#   rtb_bid_request's decode.
# - Regression.SizerZeroedCountsWithRepStos: the runtime's decoding and
#   sizing sources (SOURCES), -O2 and -O3, x86-64, `rep stos` or `rep movs`:
#   the sizers zeroed each instance's array counts with `rep stos`, 12% of
#   rtb_bid_request's unpacked_size + unpack.
# - Regression.I386CopiedWithRepMovs: both, -O2 and -O3, i386, `rep stos`
#   or `rep movs`: gcc moved each short string (16 bytes, where registers
#   ran short) and each struct set-up of 72 bytes or more with `rep movsl`,
#   half of OpenX's decode on i386 (skipped where gcc builds no i386 code).
#   cmake [-DGEN_DIR=..] [-DSOURCES="a;b"] -DINCLUDES="a;b" -DOUT=dir
#         -DPROCESSOR=x86_64 [-DLEVELS="-O2;-O3"] [-DTARGETS="m64;m32"]
#         [-DPATTERN=regex] -P no_rep_stos.cmake
cmake_minimum_required(VERSION 3.21) # IN_LIST
if(NOT DEFINED LEVELS)
  set(LEVELS -O2)
endif()
if(NOT DEFINED PATTERN)
  set(PATTERN "rep stos")
endif()
if(NOT DEFINED TARGETS)
  set(TARGETS m64 m32)
endif()
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
set(sources ${SOURCES})
if(DEFINED GEN_DIR)
  file(GLOB_RECURSE generated ${GEN_DIR}/*.pb-iter.c)
  if(NOT generated)
    message(FATAL_ERROR "no .pb-iter.c under ${GEN_DIR}")
  endif()
  list(APPEND sources ${generated})
endif()
if(NOT sources)
  message(FATAL_ERROR "no sources: give GEN_DIR or SOURCES")
endif()
set(flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags -I${dir})
endforeach()
file(MAKE_DIRECTORY "${OUT}")

# Each target's flags as one string (split again below). i386 only where
# gcc builds it (Debian: gcc-multilib).
include(${CMAKE_CURRENT_LIST_DIR}/../m32/m32_flags.cmake)
set(targets)
if("m64" IN_LIST TARGETS)
  list(APPEND targets "-m64")
endif()
if("m32" IN_LIST TARGETS)
  list(GET sources 0 probe)
  execute_process(COMMAND ${GCC} ${PBCI_M32} -O2 ${flags} -c ${probe} -o ${OUT}/probe.o
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    string(JOIN " " m32 ${PBCI_M32})
    list(APPEND targets "${m32}")
  elseif(targets)
    message(STATUS "gcc cannot build i386 code here: x86-64 only")
  else()
    message("SKIPPED: gcc cannot build i386 code here (gcc-multilib)")
    return()
  endif()
endif()

set(count 0)
set(found)
foreach(target IN LISTS targets)
  string(REPLACE " " ";" target_flags "${target}")
  foreach(level IN LISTS LEVELS)
    foreach(src IN LISTS sources)
      get_filename_component(name ${src} NAME)
      set(obj ${OUT}/${name}.o)
      execute_process(COMMAND ${GCC} ${target_flags} ${level} ${flags} -c ${src} -o ${obj}
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "gcc ${target} ${level} failed on ${src}:\n${err}")
      endif()
      execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${obj}
                      OUTPUT_VARIABLE asm RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "objdump failed on ${obj}")
      endif()
      if(asm MATCHES "${PATTERN}")
        list(APPEND found "${name} (${target} ${level})")
      endif()
      math(EXPR count "${count} + 1")
    endforeach()
  endforeach()
endforeach()
if(found)
  string(REPLACE ";" "\n  " found "${found}")
  message(FATAL_ERROR "'${PATTERN}' in:\n  ${found}")
endif()
message(STATUS "${count} objects without '${PATTERN}'")
