# (pb_c_file).no_generate: protoc-c writes nothing, and neither may we.
set(out ${CMAKE_CURRENT_BINARY_DIR}/no_generate_out)
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})
execute_process(
  COMMAND ${PROTOC} -I${DIR} ${INCLUDES} --plugin=protoc-gen-iter=${PLUGIN}
          --iter_out=${out} ${DIR}/nogen.proto
  RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "protoc failed on nogen.proto: ${stderr}")
endif()
file(GLOB_RECURSE written ${out}/*)
if(written)
  message(FATAL_ERROR "no_generate file produced output: ${written}")
endif()
