# protoc-gen-iter --version prints its version.
execute_process(COMMAND ${PLUGIN} --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "protoc-gen-iter ${VERSION}\n")
  message(FATAL_ERROR "--version printed '${out}' (exit ${rc})")
endif()
