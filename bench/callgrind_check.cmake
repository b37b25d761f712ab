# perf.callgrind_descriptor_set: counts the instructions pbci_count's decode
# loop executes per byte of the FileDescriptorSet with callgrind, and fails
# when the count exceeds the committed baseline by more than 10%.
#   -DCOUNT=pbci_count -DINPUT=descriptor_set.pb -DBASELINE=file
#   -DCOMPILER="GNU 12.2.0" -DWORK=dir
find_program(VALGRIND valgrind)
if(NOT VALGRIND)
  message("SKIPPED: valgrind is not installed (apt-get install valgrind)")
  return()
endif()
file(STRINGS "${BASELINE}" lines REGEX "^[a-z_0-9]+ ")
foreach(line IN LISTS lines)
  string(REGEX MATCH "^([a-z_0-9]+) (.*)$" _ "${line}")
  set(base_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()
# Counts depend on the compiler: compare only with a baseline of the same
# compiler and major version.
string(REGEX MATCH "^[^ ]+ [0-9]+" compiler_major "${COMPILER}")
string(REGEX MATCH "^[^ ]+ [0-9]+" base_major "${base_compiler}")
if(NOT compiler_major STREQUAL base_major)
  message("SKIPPED: the baseline is for ${base_compiler}, this build uses ${COMPILER}")
  return()
endif()

set(decodes 20)
set(out "${WORK}/callgrind.out")
execute_process(
  COMMAND ${VALGRIND} --tool=callgrind --callgrind-out-file=${out}
          --toggle-collect=count_loop* ${COUNT} ${INPUT} ${decodes}
  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "callgrind failed (${rc}):\n${stdout}\n${stderr}")
endif()
string(REGEX MATCH "bytes ([0-9]+)" _ "${stdout}")
set(bytes ${CMAKE_MATCH_1})
file(STRINGS "${out}" totals REGEX "^(summary|totals): ")
list(GET totals 0 total_line)
string(REGEX MATCH "[0-9]+" instructions "${total_line}")
# Instructions per byte, in hundredths, with integer arithmetic.
math(EXPR per_byte_x100 "${instructions} * 100 / (${decodes} * ${bytes})")
math(EXPR limit_x100 "${base_per_byte_x100} * 110 / 100")
message("instructions per byte x100: ${per_byte_x100} "
        "(baseline ${base_per_byte_x100}, limit ${limit_x100}; "
        "${instructions} instructions for ${decodes} decodes of ${bytes} bytes)")
if(per_byte_x100 GREATER limit_x100)
  message(FATAL_ERROR "the decoder regressed by more than 10% against "
                      "bench/baseline/callgrind.txt")
endif()
math(EXPR better_x100 "${base_per_byte_x100} * 90 / 100")
if(per_byte_x100 LESS better_x100)
  message("note: more than 10% better than the baseline; consider updating it")
endif()
