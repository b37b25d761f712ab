# bench.samples_smoke: pbci_bench --samples_from reports earlier runs'
# rounds together, as bench/run.sh does with one run per placement.
# Reports RAW (one run's raw.json, ROUNDS rounds) twice into OUT and checks
# that the report counts both runs' rounds and raw.json holds them all.
#   cmake -DBENCH=pbci_bench -DRAW=dir/raw.json -DROUNDS=n -DOUT=dir -P samples_check.cmake
execute_process(COMMAND ${BENCH} --samples_from=${RAW},${RAW} --benchmark_min_time=0.001
                        --report_dir=${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pbci_bench --samples_from failed (${rc}):\n${out}")
endif()
math(EXPR total "2 * ${ROUNDS}")
file(READ ${OUT}/report.md report)
set(expect "all decoders in each of 2 runs, one per placement of the code and data")
if(NOT report MATCHES "${expect}" OR NOT report MATCHES "; ${total} rounds \\(${ROUNDS} in each of 2 links")
  message(FATAL_ERROR "the report does not count 2 runs of ${ROUNDS} rounds:\n${report}")
endif()
file(READ ${OUT}/raw.json raw)
string(REGEX MATCH "\"iter/rtb_bid_request\": \\[[^]]*\\]" samples "${raw}")
string(REGEX MATCHALL "," commas "${samples}")
list(LENGTH commas n)
math(EXPR n "${n} + 1")
if(NOT raw MATCHES "\"rounds\": ${total}," OR NOT n EQUAL total)
  message(FATAL_ERROR "raw.json does not hold ${total} rounds (iter/rtb_bid_request: ${n} samples)")
endif()
message(STATUS "${total} rounds from 2 runs reported")
