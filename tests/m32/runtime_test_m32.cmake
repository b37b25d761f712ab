# runtime_test built and run as a 32-bit program (-m32, UBSan): the
# runtime's size arithmetic where size_t is 32 bits, as on i386 or armhf.
# It needs only the runtime and GoogleTest's sources, not libprotobuf.
# Skipped, saying why, when the compilers cannot build 32-bit programs
# (Debian: gcc-multilib g++-multilib; .ci/run installs them) or the
# GoogleTest sources are missing.
#   cmake -DCC=.. -DCXX=.. -DSRC=<repo> -DGTEST_SRC=<googletest/googletest>
#         -DOUT=<dir> -P runtime_test_m32.cmake
file(MAKE_DIRECTORY "${OUT}")
include(${CMAKE_CURRENT_LIST_DIR}/m32_flags.cmake)
set(m32 ${PBCI_M32})
set(flags ${m32} -O1 -g -Wall -Wextra -Werror -fsanitize=undefined
          -fno-sanitize-recover=all)

function(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${OUT}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()

# How 32-bit programs run: directly, or under qemu-i386 where the kernel
# has no 32-bit support (Debian: qemu-user).
set(runner)
find_program(QEMU_I386 qemu-i386)

# Whether `compiler` builds and runs a 32-bit program from `source`; the
# first probe that needs qemu-i386 to run sets `runner`.
function(probe compiler source result)
  file(WRITE "${OUT}/${source}" "#include <errno.h>\n"
       "int main(void) { return sizeof(void *) == 4 && errno == 0 ? 0 : 1; }\n")
  execute_process(COMMAND "${compiler}" ${m32} -fsanitize=undefined ${source} -o probe
                  WORKING_DIRECTORY "${OUT}" RESULT_VARIABLE rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    execute_process(COMMAND ${runner} "${OUT}/probe" RESULT_VARIABLE rc
                    OUTPUT_QUIET ERROR_QUIET)
    if(NOT rc EQUAL 0 AND NOT runner AND QEMU_I386)
      execute_process(COMMAND "${QEMU_I386}" "${OUT}/probe" RESULT_VARIABLE rc)
      if(rc EQUAL 0)
        set(runner "${QEMU_I386}" PARENT_SCOPE)
      endif()
    endif()
  endif()
  set(${result} ${rc} PARENT_SCOPE)
endfunction()

if(NOT EXISTS "${GTEST_SRC}/src/gtest-all.cc")
  message("SKIPPED: no GoogleTest sources in ${GTEST_SRC}")
  return()
endif()
probe("${CC}" probe.c c_rc)
probe("${CXX}" probe.cc cxx_rc)
if(NOT c_rc EQUAL 0 OR NOT cxx_rc EQUAL 0)
  message("SKIPPED: ${CC} and ${CXX} cannot both build and run 32-bit "
          "programs (Debian: apt-get install gcc-multilib g++-multilib, and "
          "qemu-user where the kernel runs no 32-bit programs)")
  return()
endif()

# GoogleTest once per build directory; the runtime and the test each time.
if(NOT EXISTS "${OUT}/gtest-all.o")
  run("${CXX}" ${m32} -O1 -std=c++17 "-I${GTEST_SRC}/include" "-I${GTEST_SRC}"
      -c "${GTEST_SRC}/src/gtest-all.cc" -o gtest-all.o.tmp)
  run("${CXX}" ${m32} -O1 -std=c++17 "-I${GTEST_SRC}/include"
      -c "${GTEST_SRC}/src/gtest_main.cc" -o gtest_main.o)
  file(RENAME "${OUT}/gtest-all.o.tmp" "${OUT}/gtest-all.o")
endif()
file(GLOB runtime_sources "${SRC}/runtime/src/*.c")
set(objects)
foreach(c IN LISTS runtime_sources)
  get_filename_component(name "${c}" NAME_WE)
  run("${CC}" ${flags} -std=c99 "-I${SRC}/runtime/include" -c "${c}"
      -o rt_${name}.o)
  list(APPEND objects rt_${name}.o)
endforeach()
# The buffer's alignment as C99 and C11 see it (tests/support/buf_align.c).
foreach(std c99 c11)
  run("${CC}" ${flags} -std=${std} -DPBCI_TEST_C_STD=${std}
      "-I${SRC}/runtime/include" -c "${SRC}/tests/support/buf_align.c"
      -o buf_align_${std}.o)
  list(APPEND objects buf_align_${std}.o)
endforeach()
run("${CXX}" ${flags} -std=c++17 "-I${GTEST_SRC}/include"
    "-I${SRC}/runtime/include" "-I${SRC}/runtime/src" -c "${SRC}/tests/runtime_test.cc"
    -o runtime_test.o)
run("${CXX}" ${m32} -fsanitize=undefined runtime_test.o ${objects} gtest-all.o
    gtest_main.o -lpthread -o runtime_test_m32)
if(runner)
  message("running under ${runner}: this kernel runs no 32-bit programs")
endif()
execute_process(COMMAND ${runner} "${OUT}/runtime_test_m32" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "runtime_test_m32 failed (exit ${rc})")
endif()
