# protoc-gen-iter --version (and -V) prints its version; --help (and -h) its
# usage, naming protoc's --iter_out.
foreach(case "--version|^protoc-gen-iter ${VERSION}\n$"
             "-V|^protoc-gen-iter ${VERSION}\n$"
             "--help|^protoc-gen-iter ${VERSION}: .*--iter_out=OUT"
             "-h|^protoc-gen-iter ${VERSION}: .*--iter_out=OUT")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 flag)
  list(GET parts 1 expect)
  execute_process(COMMAND ${PLUGIN} ${flag} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${expect}")
    message(FATAL_ERROR "${flag} printed '${out}' (exit ${rc})")
  endif()
endforeach()
