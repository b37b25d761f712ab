# Writes a message with 65536 fields of one label, more than the sizer's
# table can index (PbciFieldInfo::slot and ::required_bit are 16 bits), and
# checks that the plugin rejects it by name and writes nothing
# (expect_error.cmake).
#   cmake -DPROTOC=.. -DPLUGIN=.. -DLABEL=repeated|required -P too_wide.cmake
set(DIR ${CMAKE_CURRENT_BINARY_DIR}/too_wide_${LABEL})
set(PROTO too_wide_${LABEL}.proto)
file(WRITE ${DIR}/${PROTO} "syntax = \"proto2\";\npackage bad;\nmessage W {\n")
# 65536 fields numbered from 1, skipping 19000-19999 (reserved by
# protobuf); written in chunks, as appending to one long string is
# quadratic.
foreach(chunk RANGE 0 15)
  set(lines "")
  foreach(i RANGE 1 4096)
    math(EXPR n "${chunk} * 4096 + ${i}")
    if(n GREATER_EQUAL 19000)
      math(EXPR n "${n} + 1000")
    endif()
    string(APPEND lines "  ${LABEL} int32 f${n} = ${n};\n")
  endforeach()
  file(APPEND ${DIR}/${PROTO} "${lines}")
endforeach()
file(APPEND ${DIR}/${PROTO} "}\n")
set(EXPECT "${PROTO}: message bad.W has more than 65535 ${LABEL} fields")
# Newer protoc (36) refuses more than 65535 fields in a message itself,
# before any plugin runs; then its error is the one to see.
execute_process(COMMAND ${PROTOC} -I${DIR} --descriptor_set_out=${DIR}/set.pb ${DIR}/${PROTO}
                RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  if(NOT stderr MATCHES "65536 fields in bad\\.W exceeds the limit of 65535")
    message(FATAL_ERROR "protoc alone refused ${PROTO} for another reason:\n${stderr}")
  endif()
  set(EXPECT "65536 fields in bad\\.W exceeds the limit of 65535")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/expect_error.cmake)
