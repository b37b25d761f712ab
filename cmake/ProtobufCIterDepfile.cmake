# protobuf_c_iter_generate()'s step after protoc: rewrites protoc's
# --dependency_out file so that CMake and Ninja read it as protoc meant.
#   cmake -DDEPFILE=file -DOUTPUT=first-output -P ProtobufCIterDepfile.cmake
# protoc writes each path as it is: "/my proj/a.proto", which make-style
# depfile readers take for two files, "/my" and "proj/a.proto", that never
# exist, so a project under a directory with a space regenerated its code at
# every build. And protoc names its outputs sorted (a.pb-c.c first), where
# Ninja wants the rule's first output and otherwise reruns the rule at every
# build. The rewrite names OUTPUT alone, then protoc's dependencies, each
# escaped.
if(NOT DEPFILE OR NOT OUTPUT)
  message(FATAL_ERROR "usage: cmake -DDEPFILE=file -DOUTPUT=path -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

# protoc's form: "out1 \<newline>out2: dep1\<newline> dep2", one path to a
# line. Nothing in it is escaped, so the outputs end at the first ": ".
file(READ "${DEPFILE}" text)
string(FIND "${text}" ": " colon)
if(colon LESS 0)
  message(FATAL_ERROR "${DEPFILE}: not protoc's dependency file")
endif()
math(EXPR colon "${colon} + 2")
string(SUBSTRING "${text}" ${colon} -1 deps)
string(REPLACE "\\\n" ";" deps "${deps}")

function(escape var path)
  string(STRIP "${path}" path)
  string(REPLACE "$" "$$" path "${path}")
  string(REPLACE "#" "\\#" path "${path}")
  string(REPLACE " " "\\ " path "${path}")
  set(${var} "${path}" PARENT_SCOPE)
endfunction()

escape(out "${OUTPUT}")
set(result "${out}:")
foreach(dep IN LISTS deps)
  escape(dep "${dep}")
  if(dep)
    string(APPEND result " \\\n  ${dep}")
  endif()
endforeach()
file(WRITE "${DEPFILE}" "${result}\n")
